#!/usr/bin/env python3
"""Regenerate data/errors.tsv: every code of cudaError_t, CUresult, cudnnStatus_t (9), cublasStatus_t,
cufftResult, curandStatus_t, cusolverStatus_t, cusparseStatus_t, ncclResult_t and nvmlReturn_t, read
from the real headers, with the texts the libraries print.

Run by hand when a new CUDA release adds codes (it is not part of the build):
  tools/errors-enums.py --cuda /usr/local/cuda [--nvml-h NVML.H --nvml-strings STRINGS] \
      [--libcuda-strings STRINGS] > data/errors.tsv.new
Without --libcuda-strings the CUresult rows, without --nvml-h the nvmlReturn_t rows are kept as they are.
The curated columns of the existing table (finding, note, causes, verbatim texts checked against
reports) are kept for every (api, code) already in data/errors.tsv; new rows get the header's name,
the text the library returns (cudaGetErrorString of libcudart, cublasGetStatusString of libcublas,
cusparseGetErrorString of libcusparse; the name for cuDNN, whose cudnnGetErrorString returns the name;
the header's comment or the name in our words, not verbatim, for cuFFT, cuRAND and cuSOLVER, which
have no string function) and no finding. Rows of other APIs
(cudnn8, cudart_legacy, optix, win32) are kept as they are.

It loads libcudart/libcublas with ctypes to call their string functions: pure table lookups that
touch no device. It never loads libcuda or libnvidia-ml: their texts come from `strings` output of
the real files (a text is taken only when it appears there whole)."""
import argparse
import ctypes
import os
import re
import sys

HEADER_COLS = ["*api:str", "*code:int", "name:str", "text:str", "verbatim:bool", "finding:id?",
               "note:str?", "causes:list?", "aliases:list?", "status:mark", "source:src"]


def enum_body(src, start, end_pat):
    i = src.index(start)
    j = src.index(end_pat, i)
    return src[i:j]


def read_table(path):
    head, rows, order = [], {}, []
    cols = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#") or not line.strip():
            if cols is None:
                head.append(line)
            continue
        f = line.split("\t")
        if cols is None:
            cols = [c.lstrip("*").split(":")[0] for c in f]
            continue
        r = dict(zip(cols, f))
        key = (r["api"], int(r["code"]))
        rows[key] = r
        order.append(key)
    return head, rows, order


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", default="data/errors.tsv")
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--nvml-h")
    ap.add_argument("--libcuda-strings")
    ap.add_argument("--nvml-strings")
    a = ap.parse_args()
    inc = os.path.join(a.cuda, "include")
    head, old, order = read_table(a.table)

    new = {}  # (api, code) -> (name, text, verbatim, source)
    # cudaError_t
    dt = open(os.path.join(inc, "driver_types.h")).read()
    body = enum_body(dt, "enum __device_builtin__ cudaError", "};")
    cudart = ctypes.CDLL(os.path.join(a.cuda, "lib64", "libcudart.so"))
    cudart.cudaGetErrorString.restype = ctypes.c_char_p
    rt_text = {}
    for name, val in re.findall(r"\b(cuda(?:Success|Error\w*))\s*=\s*(\d+)", body):
        code = int(val)
        text = cudart.cudaGetErrorString(code).decode()
        rt_text[code] = text
        new[("cudart", code)] = (name, text, "yes", "O3")
    # CUresult: the driver's texts are the runtime's for most codes; take one only when the real
    # libcuda holds that exact string
    if a.libcuda_strings:
        cu = open(os.path.join(inc, "cuda.h")).read()
        body = enum_body(cu, "typedef enum cudaError_enum", "} CUresult;")
        libcuda = set(open(a.libcuda_strings, encoding="latin-1").read().split("\n"))
        for name, val in re.findall(r"\b(CUDA_(?:SUCCESS|ERROR_\w+))\s*=\s*(\d+)", body):
            code = int(val)
            t = rt_text.get(code)
            if t and t in libcuda:
                new[("cu", code)] = (name, t, "yes", "O3")
            else:
                new[("cu", code)] = (name, name, "no", "O3")
    # cudnnStatus_t (cuDNN 9): cudnnGetErrorString returns the name; deprecated aliases
    g = open(os.path.join(inc, "cudnn_graph.h")).read()
    body = enum_body(g, "typedef enum {\n    CUDNN_STATUS_SUCCESS", "} cudnnStatus_t;")
    aliases = {}
    for name, val in re.findall(r"\b(CUDNN_STATUS_\w+)\s*=\s*(\d+)", body):
        new[("cudnn9", int(val))] = (name, name, "yes", "O3")
    for name, target in re.findall(r"\b(CUDNN_STATUS_\w+) CUDNN_DEPRECATED_ENUM\s*=\s*(CUDNN_STATUS_\w+)", body):
        for k, v in new.items():
            if k[0] == "cudnn9" and v[0] == target:
                aliases.setdefault(k, []).append(name)
    # cublasStatus_t
    cb = open(os.path.join(inc, "cublas_api.h")).read()
    lib = ctypes.CDLL(os.path.join(a.cuda, "lib64", "libcublas.so"))
    lib.cublasGetStatusString.restype = ctypes.c_char_p
    for name, val in re.findall(r"\b(CUBLAS_STATUS_\w+)\s*=\s*(\d+)", cb):
        new[("cublas", int(val))] = (name, lib.cublasGetStatusString(int(val)).decode(), "yes", "O3")
    # cusparseStatus_t: cusparseGetErrorString's texts; they are generic ("internal error"), so
    # explain counts them only on a line that names cuSPARSE (api_hint in src/explain/explain_facts.c)
    sp = open(os.path.join(inc, "cusparse.h")).read()
    lib = ctypes.CDLL(os.path.join(a.cuda, "lib64", "libcusparse.so"))
    lib.cusparseGetErrorString.restype = ctypes.c_char_p
    for name, val in re.findall(r"\b(CUSPARSE_STATUS_\w+)\s*=\s*(\d+)", sp):
        new[("cusparse", int(val))] = (name, lib.cusparseGetErrorString(int(val)).decode(), "yes", "O3")
    # cufftResult, curandStatus_t, cusolverStatus_t: no string function; the text is the name's
    # words (programs print the name: PyTorch's "cuFFT error: CUFFT_INTERNAL_ERROR")
    for api, header, start, end in (("cufft", "cufft.h", "typedef enum cufftResult_t", "} cufftResult;"),
                                    ("curand", "curand.h", "enum curandStatus", "};"),
                                    ("cusolver", "cusolver_common.h", "typedef enum", "} cusolverStatus_t;")):
        src = open(os.path.join(inc, header)).read()
        body = src[:src.index(end)]
        body = body[body.rindex(start):]
        for name, val in re.findall(r"\b([A-Z]+_\w+)\s*=\s*(0x[0-9A-Fa-f]+|\d+)", body):
            words = name.split("_", 1)[1]
            words = words[len("STATUS_"):] if words.startswith("STATUS_") else words
            new[(api, int(val, 0))] = (name, words.replace("_", " ").lower(), "no", "O3")
    # ncclResult_t: texts of ncclGetErrorString (NVIDIA/nccl src/init.cc, S22)
    nccl_text = {0: "no error", 1: "unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
                 2: "unhandled system error (run with NCCL_DEBUG=INFO for details)",
                 3: "internal error - please report this issue to the NCCL developers",
                 4: "invalid argument (run with NCCL_DEBUG=WARN for details)",
                 5: "invalid usage (run with NCCL_DEBUG=WARN for details)",
                 6: "remote process exited or there was a network error", 7: "NCCL operation in progress"}
    nc = open(os.path.join(inc, "nccl.h")).read()
    for name, val in re.findall(r"\b(nccl(?:Success|[A-Z]\w*Error|Invalid\w+|InProgress))\s*=\s*(\d+)", nc):
        code = int(val)
        new[("nccl", code)] = (name, nccl_text.get(code, name), "yes" if code in nccl_text else "no", "O3,S22")
    # nvmlReturn_t: nvml.h (S21); texts of nvmlErrorString only when libnvidia-ml holds them
    if a.nvml_h and a.nvml_strings:
        nv = open(a.nvml_h).read()
        body = enum_body(nv, "typedef enum nvmlReturn_enum", "} nvmlReturn_t;")
        # nvmlErrorString's texts, code by code (the strings of libnvidia-ml 535 are pooled, so their
        # order does not give the codes; each text is checked to be in the binary, a suffix counts)
        nvml_text = {0: "Success", 1: "Uninitialized", 2: "Invalid Argument", 3: "Not Supported",
                     4: "Insufficient Permissions", 5: "Already Initialized", 6: "Not Found",
                     7: "Insufficient Size", 8: "Insufficient External Power", 9: "Driver Not Loaded",
                     10: "Timeout", 11: "Interrupt Request Issue", 12: "NVML Shared Library Not Found",
                     13: "Function Not Found", 14: "Corrupted infoROM", 15: "GPU is lost",
                     16: "GPU requires reset", 17: "GPU access blocked by the operating system",
                     18: "Driver/library version mismatch", 19: "In use by another client",
                     20: "Insufficient Memory", 21: "No data", 22: "vGPU ECC not supported",
                     23: "Insufficient Resources", 24: "Invalid Frequency", 25: "Argument version mismatch",
                     26: "Requested functionality has been deprecated", 27: "System is not in ready state",
                     999: "Unknown Error"}
        blob = open(a.nvml_strings, encoding="latin-1").read().split("\n")
        for name, val, comment in re.findall(r"\b(NVML_(?:SUCCESS|ERROR_\w+))\s*=\s*(\d+),?\s*//!<\s*([^\n]*)", body):
            code = int(val)
            t = nvml_text.get(code)
            if t and any(s.endswith(t) for s in blob):
                new[("nvml", code)] = (name, t, "yes", "S21,O3")
            else:
                new[("nvml", code)] = (name, comment.strip(), "no", "S21")

    out = {}
    for key, (name, text, verb, src) in new.items():
        r = old.get(key)
        if r:
            r = dict(r)
            if r["name"] != name:
                print(f"note: {key} renamed {r['name']} -> {name}", file=sys.stderr)
            r["name"] = name
            if r["verbatim"] == "no" and verb == "yes" and "(sic)" not in r["note"]:
                # a note with "(sic)": the printed string is misspelt and kept corrected on purpose
                # (the packaged binary must pass lintian's spelling check)
                # the curated text was the header's meaning: the printed string is better evidence
                r["text"], r["verbatim"] = text, "yes"
                r["source"] = ",".join(dict.fromkeys(r["source"].split(",") + src.split(",")))
        else:
            r = {"api": key[0], "code": str(key[1]), "name": name, "text": text, "verbatim": verb,
                 "finding": "-", "note": "-", "causes": "-", "aliases": "-", "status": "", "source": src}
        r.setdefault("causes", "-")
        r.setdefault("aliases", "-")
        if key in aliases:
            r["aliases"] = ",".join(aliases[key])
        out[key] = r
    for key, r in old.items():
        if key not in out:
            r = dict(r)
            r.setdefault("causes", "-")
            r.setdefault("aliases", "-")
            out[key] = r
    api_order = ["cudart", "cudart_legacy", "cu", "cudnn8", "cudnn9", "cublas", "cufft", "curand", "cusolver",
                 "cusparse", "nccl", "nvml", "optix", "win32", "ntstatus"]
    keys = sorted(out, key=lambda k: (api_order.index(k[0]) if k[0] in api_order else 99, k[1]))
    for h in head:
        print(h)
    print("\t".join(HEADER_COLS))
    for k in keys:
        r = out[k]
        print("\t".join(r[c.lstrip("*").split(":")[0]] for c in HEADER_COLS))


if __name__ == "__main__":
    main()
