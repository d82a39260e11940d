# What scripts/gpu-bundle.sh and scripts/cpu-bf16-bundle.sh share (sourced):
# packing tc-run for a lent machine that has no LLVM and no Debian libraries,
# and the limit on what travels there.

# pack_tc_run BUILD TAR: tc-run, its plug-ins, and the libraries they load
# that are neither glibc's nor CUDA's (a GPU machine brings those), as
# TAR (tar.xz) holding bin/tc-run and lib/.
pack_tc_run() {
  local build=$1 tar=$2 dir
  dir=$(mktemp -d)
  mkdir -p "$dir/bin" "$dir/lib"
  cp "$build/bin/tc-run" "$dir/bin/"
  cp "$build"/lib/*.so "$dir/lib/"
  { ldd "$build/bin/tc-run"; for plugin in "$build"/lib/*.so; do ldd "$plugin"; done; } |
    awk '$3 ~ /^\// {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libdl|libpthread|librt|libgcc_s|ld-linux[^/]*)\.so|/usr/local/cuda' |
    xargs -I{} cp -L {} "$dir/lib/"
  tar -C "$dir" -cJf "$tar" .
  rm -rf "$dir"
}

# check_bundle_size DIR SCRIPT: fails when DIR's tar.xz files are over the
# 64 MiB a lent machine takes.
check_bundle_size() {
  local bytes
  du -sh "$1"
  bytes=$(du -cb "$1"/*.tar.xz | tail -1 | cut -f1)
  if [ "$bytes" -ge $((64 * 1024 * 1024)) ]; then
    echo "$2: $1 holds $bytes bytes, over the 64 MiB a lent machine takes" >&2
    return 1
  fi
}
