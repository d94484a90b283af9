/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-info's output: one set of calls writes either the text report or, with --json, the
 * same content as one JSON document (info_out.c). Keyed values print in text as
 * "    KEY<padding> VALUE" lines; info_text() lines appear in the text report only, and
 * info_begin()/info_end() open and close a JSON object (or array) whose text heading, if
 * any, is printed as given.
 */
#ifndef VMEL_INFO_OUT_H
#define VMEL_INFO_OUT_H

#include <stdbool.h>
#include <stdint.h>

void info_out_init(bool json);
bool info_out_json(void);
/* Ends the document (JSON: closes the top-level object). */
void info_out_finish(void);

void info_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* key NULL inside an array; heading NULL prints nothing in text. */
void info_begin(const char *key, const char *heading);
void info_begin_list(const char *key, const char *heading);
void info_end(void);

void info_bool(const char *key, bool value);
void info_uint(const char *key, uint64_t value);
void info_int(const char *key, int64_t value);
void info_hex(const char *key, uint64_t value);
/* JSON only (the text report says these in its own words). */
void info_str(const char *key, const char *value);
void info_num(const char *key, uint64_t value);
void info_flag(const char *key, bool value);

#endif /* VMEL_INFO_OUT_H */
