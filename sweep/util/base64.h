/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Base64 (RFC 4648 section 4, with padding, no line breaks): the HTML
 * page's charts as data: URIs.  No library bpfsweep links has an encoder
 * (libbpf, GSL, libcsv, json-c, zlib, libelf: docs/dependencies.md), and
 * one is a table and a loop.
 */
#ifndef SWEEP_BASE64_H
#define SWEEP_BASE64_H

#include <stddef.h>
#include <stdio.h>

/* data[0..n) to f as base64. */
void base64_put(FILE *f, const void *data, size_t n);

#endif
