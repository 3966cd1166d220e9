#!/usr/bin/env bash
# Builds the drop-in CANN C ABI with the machine's gcc and installs it into PREFIX, laid out like a
# CANN toolkit:
#   PREFIX/include/{acl,aclnn,aclnnop}/*.h
#   PREFIX/lib64/libascendcl.so, libnnopbase.so, libopapi.so, and libopapi_nn.so, libopapi_math.so
#                (the names CANN's sample recipe links: links to libopapi.so, which has every operator)
#   PREFIX/lib64/aclnn4j/aclnn4j.jar   (when CLASSPATH is a jar; found beside the libraries, so PREFIX
#                                       can be moved)
#   PREFIX/lib64/aclnn4j/aclnn4j.aot   (then: the JVM's AOT cache, from a training run)
#   PREFIX/lib   a link to lib64 (or, over an older install, links to what lib64 has)
#   PREFIX/set_env.sh                  (source it: what CANN's sets for building and running)
# usage: native/build.sh PREFIX JDK CLASSPATH
#   JDK        the JDK (25 or newer) the libraries start; recorded, and found again at run time as
#              ./aclnn4j finds one if it is gone (JAVA_HOME when it is a JDK >= 25 comes first)
#   CLASSPATH  the aclnn4j jar, copied into PREFIX; or a classes directory, recorded as it is (for
#              tests against a build tree)
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 PREFIX JDK CLASSPATH" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
jdk=$(cd "$2" && pwd)
classpath=$3

CC=${CC:-gcc}
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "the native C ABI needs a C compiler ($CC); install gcc (apt-get install -y gcc)" >&2
  exit 1
fi
if [ ! -f "$jdk/include/jni.h" ] || [ ! -f "$jdk/lib/server/libjvm.so" ]; then
  echo "$jdk is not a JDK (no include/jni.h or lib/server/libjvm.so)" >&2
  exit 1
fi

libdir="$prefix/lib64"
mkdir -p "$prefix/include" "$libdir"
if [ -f "$classpath" ]; then
  mkdir -p "$libdir/aclnn4j"
  cp "$classpath" "$libdir/aclnn4j/aclnn4j.jar"
  classpath="$libdir/aclnn4j/aclnn4j.jar"
elif [ -d "$classpath" ]; then
  classpath=$(cd "$classpath" && pwd)
else
  echo "$classpath is neither the aclnn4j jar nor a classes directory" >&2
  exit 1
fi
# The paths become C string literals.
case "$jdk$classpath" in
  *\"* | *\\*) echo "the JDK and class paths may not contain '\"' or '\\'" >&2; exit 1 ;;
esac

cp -R "$here/include/." "$prefix/include/"

build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
CFLAGS=(-std=gnu11 -O2 -fPIC -fvisibility=hidden -Wall -Wextra -I "$here/include" -I "$here/src"
  -I "$jdk/include" -I "$jdk/include/linux")
LDFLAGS=(-shared -Wl,-z,defs)

"$CC" "${CFLAGS[@]}" -DACLNN4J_JAVA_HOME="\"$jdk\"" -DACLNN4J_CLASS_PATH="\"$classpath\"" \
  "$here/src/bridge.c" "$here/src/ascendcl.c" "${LDFLAGS[@]}" -Wl,-soname,libascendcl.so \
  -o "$build/libascendcl.so" -ldl -lpthread
# libnnopbase and libopapi reach the bridge through libascendcl, found next to them.
for lib in nnopbase opapi; do
  "$CC" "${CFLAGS[@]}" "$here/src/$lib.c" "${LDFLAGS[@]}" -Wl,-soname,"lib$lib.so" \
    -L "$build" -lascendcl -Wl,-rpath,'$ORIGIN' -o "$build/lib$lib.so"
done
cp "$build"/lib*.so "$libdir/"
for name in opapi_nn opapi_math; do
  ln -sfn libopapi.so "$libdir/lib$name.so"
done
if [ ! -e "$prefix/lib" ] || [ -L "$prefix/lib" ]; then
  ln -sfn lib64 "$prefix/lib"
else # a directory from an older install: keep it working
  for entry in "$libdir"/lib*.so "$libdir"/aclnn4j; do
    [ -e "$entry" ] || continue
    rm -rf "$prefix/lib/$(basename "$entry")"
    ln -s "../lib64/$(basename "$entry")" "$prefix/lib/$(basename "$entry")"
  done
fi
template=$(<"$here/set_env.sh.in")
printf '%s\n' "${template//@PREFIX@/$prefix}" >"$prefix/set_env.sh"

# The JVM the libraries start reads its classes, loaded and linked, and method profiles from an AOT
# cache (JDK 25, JEP 483 and 515) made by a training run: a C program calling every operator through
# these libraries (train/train.c), so that the JVM is started with exactly the options bridge.c
# passes and the cache holds the C ABI's own classes. Only a jar can be cached.
if [ -f "$classpath" ]; then
  rm -f "$libdir/aclnn4j/aclnn4j.aot"
  trainer=$(mktemp)
  if ! "$CC" -std=gnu11 -O2 "$here/train/train.c" -I "$prefix/include" -I "$jdk/include" -I "$jdk/include/linux" \
        -L "$libdir" -lascendcl -lnnopbase -lopapi -ldl -Wl,-rpath,"$libdir" -o "$trainer" ||
     ! ACLNN4J_JAVA_HOME="$jdk" ACLNN4J_JAVA_OPTIONS="-XX:AOTCacheOutput=$libdir/aclnn4j/aclnn4j.aot" \
        "$trainer" >/dev/null 2>&1; then
    rm -f "$libdir/aclnn4j/aclnn4j.aot"
    echo "note: no AOT cache made (the training run failed); C programs start the JVM without one" >&2
  fi
  rm -f "$trainer"
fi

echo "installed the CANN C ABI of aclnn4j into $prefix (JDK $jdk, class path $classpath)"
