#!/bin/sh
# Runs an mpirun job of two ranks on two hosts simulated on this machine:
# two network namespaces joined by a veth pair (10.77.R.1 and 10.77.R.2),
# mpirun in the first, starting the second rank through an "rsh agent" that
# enters the other namespace, and the ranks talking over TCP on the veth
# pair only. Each rank prints the namespace it runs in.
#
# usage: two-hosts.sh WORKDIR COMMAND...   (needs root and iproute2)
set -eu
work=$1; shift
tag=tc$$
a=$tag-a b=$tag-b
net=10.77.$(($$ % 250))
cleanup() { ip netns del "$a" 2>/dev/null || true; ip netns del "$b" 2>/dev/null || true; }
trap cleanup EXIT
ip netns add "$a"
ip netns add "$b"
ip link add "$tag-va" type veth peer name "$tag-vb"
ip link set "$tag-va" netns "$a"
ip link set "$tag-vb" netns "$b"
ip -n "$a" addr add "$net.1/24" dev "$tag-va"
ip -n "$b" addr add "$net.2/24" dev "$tag-vb"
for ns in "$a" "$b"; do
  ip -n "$ns" link set lo up
done
ip -n "$a" link set "$tag-va" up
ip -n "$b" link set "$tag-vb" up

# The agent mpirun runs as `agent [options] HOST COMMAND...`: the host's
# namespace instead of ssh.
agent=$work/agent.sh
cat > "$agent" <<AGENT
#!/bin/sh
while [ "\${1#-}" != "\$1" ]; do shift; done
host=\$1; shift
case \$host in
  $net.1) ns=$a ;;
  $net.2) ns=$b ;;
  *) echo "agent: unknown host \$host" >&2; exit 1 ;;
esac
exec ip netns exec \$ns sh -c "\$*"
AGENT
chmod +x "$agent"

ip netns exec "$a" mpirun --bind-to none --host "$net.1,$net.2" -np 2 \
  --mca plm_rsh_agent "$agent" --mca btl tcp,self \
  --mca btl_tcp_if_include "$net.0/24" --mca oob_tcp_if_include "$net.0/24" \
  -x PATH -x OMP_NUM_THREADS \
  sh -c 'echo "rank $OMPI_COMM_WORLD_RANK runs in namespace $(ip netns identify $$), host $OMPI_COMM_WORLD_LOCAL_SIZE of its own" | sed "s/[0-9]*-a/A/; s/[0-9]*-b/B/; s/host 1 of its own/alone on its host/"; exec "$@"' rank "$@"
