#!/bin/sh
# Build the NVIDIA test doubles into DIR under the SONAMEs of the libraries they replace.
# usage: tests/doubles/build.sh DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
cc=${CC:-cc}
b() { $cc -shared -fPIC -O1 -Wall -I"$here" -o "$out/$2" "$here/$1" -Wl,-soname,"$2" -ldl; }
b libcuda_double.c libcuda.so.1
b libcudart_double.c libcudart.so.13
b libnvml_double.c libnvidia-ml.so.1
b libcublas_double.c libcublas.so.13
b libcudnn_double.c libcudnn.so.9
b libptxjit_double.c libnvidia-ptxjitcompiler.so.1
