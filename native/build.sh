#!/usr/bin/env bash
# Builds the drop-in CANN C ABI with the machine's gcc and installs it into PREFIX:
#   PREFIX/include/{acl,aclnn,aclnnop}/*.h
#   PREFIX/lib/libascendcl.so, libnnopbase.so, libopapi.so
#   PREFIX/lib/aclnn4j/aclnn4j.jar   (when CLASSPATH is a jar)
#   PREFIX/lib/aclnn4j/aclnn4j.aot   (then: the JVM's AOT cache, from a training run)
# usage: native/build.sh PREFIX JDK CLASSPATH
#   JDK        the JDK (25 or newer) the libraries start; recorded, JAVA_HOME overrides it at run time
#   CLASSPATH  the aclnn4j jar, copied into PREFIX and recorded; or a classes directory, recorded as
#              it is (for tests against a build tree)
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

mkdir -p "$prefix/include" "$prefix/lib"
if [ -f "$classpath" ]; then
  mkdir -p "$prefix/lib/aclnn4j"
  cp "$classpath" "$prefix/lib/aclnn4j/aclnn4j.jar"
  classpath="$prefix/lib/aclnn4j/aclnn4j.jar"
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
cp "$build"/lib*.so "$prefix/lib/"

# The JVM the libraries start reads its classes, linked, and method profiles from an AOT cache
# (JDK 25, JEP 483 and 515) made by a training run: the calling examples of every operator, with
# exactly the JVM options bridge.c passes. Only a jar can be cached.
if [ -f "$classpath" ]; then
  rm -f "$prefix/lib/aclnn4j/aclnn4j.aot"
  if ! "$jdk/bin/java" -XX:AOTCacheOutput="$prefix/lib/aclnn4j/aclnn4j.aot" -Xlog:aot*=off,cds*=off \
      -Djava.class.path="$classpath" --enable-native-access=ALL-UNNAMED -Xrs --add-modules=jdk.incubator.vector \
      io.github.aclnn4j.demo.Demo >/dev/null 2>&1; then
    rm -f "$prefix/lib/aclnn4j/aclnn4j.aot"
    echo "note: no AOT cache made (the training run failed); C programs start the JVM without one" >&2
  fi
fi

echo "installed the CANN C ABI of aclnn4j into $prefix (JDK $jdk, class path $classpath)"
