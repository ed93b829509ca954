#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=stacks
# Open MPI over UCX: two ranks exchange 1 MiB through the rxe device (env's
# OMPI_MCA_pml=ucx and UCX_TLS keep them off shared memory and TCP), by a
# small program built here with mpicc.

load stacks

setup() {
	stacks_setup
	needs mpicc mpirun
}

@test "stacks: Open MPI over UCX: two ranks exchange 1 MiB through the link" {
	run -0 mpicc -O2 -o "$BATS_TEST_TMPDIR/exchange" "$BATS_TEST_DIRNAME/mpi-exchange.c"
	before=$(rxe_sent)
	run -0 timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$BATS_TEST_TMPDIR/exchange"
	assert_line 'rank 1: 1048576 bytes from rank 0, 0 wrong'
	assert_line 'rank 0: 1048576 bytes back from rank 1, 0 wrong'
	assert_carried "$before" 1000
	# shellcheck disable=SC2154 # set by rdmactl env, in setup
	stack_result "Open MPI $(mpirun --version | sed -n '1s/.* //p') over UCX ($OMPI_MCA_pml, $UCX_TLS)" "2 ranks, 1 MiB there and back, every byte checked"
}
