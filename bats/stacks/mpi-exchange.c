// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two ranks: rank 0 sends 1 MiB of a known pattern, rank 1 checks every byte
 * and sends it back, rank 0 checks it again. Built by bats/stacks/60-mpi.bats.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN (1 << 20)

static int wrong(const unsigned char *b)
{
	int n = 0;

	for (int i = 0; i < LEN; i++)
		n += b[i] != (unsigned char)(i * 7 + 3);
	return n;
}

int main(int argc, char **argv)
{
	unsigned char *buf = malloc(LEN);
	int rank, size, bad = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!buf || size != 2)
		MPI_Abort(MPI_COMM_WORLD, 2);
	if (rank == 0) {
		for (int i = 0; i < LEN; i++)
			buf[i] = (unsigned char)(i * 7 + 3);
		MPI_Send(buf, LEN, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
		MPI_Recv(buf, LEN, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		bad = wrong(buf);
		printf("rank 0: %d bytes back from rank 1, %d wrong\n", LEN, bad);
	} else {
		MPI_Recv(buf, LEN, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		bad = wrong(buf);
		printf("rank 1: %d bytes from rank 0, %d wrong\n", LEN, bad);
		MPI_Send(buf, LEN, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
	}
	free(buf);
	MPI_Finalize();
	return bad != 0;
}
