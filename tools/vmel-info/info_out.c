/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-info's text and JSON writer (info_out.h). JSON: strings escaped per RFC 8259 (quote,
 * backslash, control characters as \uXXXX), nesting tracked to place commas.
 */
#include "info_out.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#define MAX_DEPTH 16

static bool json_mode;
static unsigned depth;
static bool has_items[MAX_DEPTH];
static bool is_list[MAX_DEPTH];

void
info_out_init(bool json)
{
   json_mode = json;
   depth = 0;
   if (json) {
      fputs("{", stdout);
      has_items[0] = false;
      is_list[0] = false;
   }
}

bool
info_out_json(void)
{
   return json_mode;
}

static void
json_string(const char *s)
{
   putchar('"');
   for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
      if (*c == '"' || *c == '\\')
         printf("\\%c", *c);
      else if (*c < 0x20)
         printf("\\u%04x", *c);
      else
         putchar(*c);
   }
   putchar('"');
}

/* The comma, newline, indentation and key before a value at the current depth. */
static void
json_key(const char *key)
{
   if (has_items[depth])
      putchar(',');
   has_items[depth] = true;
   printf("\n%*s", 2 * (int)(depth + 1), "");
   if (key && !is_list[depth]) {
      json_string(key);
      fputs(": ", stdout);
   }
}

void
info_out_finish(void)
{
   if (json_mode)
      fputs("\n}\n", stdout);
}

void
info_text(const char *fmt, ...)
{
   if (json_mode)
      return;
   va_list ap;
   va_start(ap, fmt);
   vprintf(fmt, ap);
   va_end(ap);
}

static void
begin(const char *key, const char *heading, bool list)
{
   if (!json_mode) {
      if (heading)
         printf("%s\n", heading);
      return;
   }
   json_key(key);
   putchar(list ? '[' : '{');
   if (depth + 1 < MAX_DEPTH) {
      depth++;
      has_items[depth] = false;
      is_list[depth] = list;
   }
}

void
info_begin(const char *key, const char *heading)
{
   begin(key, heading, false);
}

void
info_begin_list(const char *key, const char *heading)
{
   begin(key, heading, true);
}

void
info_end(void)
{
   if (!json_mode || depth == 0)
      return;
   bool list = is_list[depth];
   bool items = has_items[depth];
   depth--;
   if (items)
      printf("\n%*s", 2 * (int)(depth + 1), "");
   putchar(list ? ']' : '}');
}

/* A keyed value: JSON text `json`, or the text line "    KEY<padding> text". */
static void
keyed(const char *key, const char *json, const char *text)
{
   if (json_mode) {
      json_key(key);
      fputs(json, stdout);
   } else {
      printf("    %-45s %s\n", key, text);
   }
}

void
info_bool(const char *key, bool value)
{
   keyed(key, value ? "true" : "false", value ? "yes" : "no");
}

void
info_uint(const char *key, uint64_t value)
{
   char v[24];
   snprintf(v, sizeof(v), "%" PRIu64, value);
   keyed(key, v, v);
}

void
info_int(const char *key, int64_t value)
{
   char v[24];
   snprintf(v, sizeof(v), "%" PRId64, value);
   keyed(key, v, v);
}

void
info_hex(const char *key, uint64_t value)
{
   char v[24], x[24];
   snprintf(v, sizeof(v), "%" PRIu64, value);
   snprintf(x, sizeof(x), "0x%" PRIx64, value);
   keyed(key, v, x);
}

void
info_str(const char *key, const char *value)
{
   if (!json_mode)
      return;
   json_key(key);
   json_string(value);
}

void
info_num(const char *key, uint64_t value)
{
   if (json_mode)
      info_uint(key, value);
}

void
info_flag(const char *key, bool value)
{
   if (json_mode)
      info_bool(key, value);
}
