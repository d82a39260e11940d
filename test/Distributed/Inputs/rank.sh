#!/bin/sh
# Runs one rank's command after writing its PID to $RANK_PIDS/pid.RANK, so
# that a test can signal one rank of an mpirun job.
echo $$ > "$RANK_PIDS/pid.$OMPI_COMM_WORLD_RANK"
exec "$@"
