/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Build-time host generator of the core struct-size table used for pNext
 * cloning (lyr_pnext.c). It reads vk.xml and vulkan_core.h and writes a C file
 * defining lyr_struct_size_core(): a switch from each sType to the sizeof of
 * its struct. A struct is listed when vk.xml gives its sType member a
 * values="VK_STRUCTURE_TYPE_..." attribute, it is not an alias, its api (if
 * any) includes "vulkan", and both "typedef struct <name> {" and its sType
 * enumerant appear in vulkan_core.h (that leaves out platform, beta and
 * Vulkan SC structs). The ARM ML structs are not here; lyr_pnext.c has them.
 *
 * Usage: gen_struct_sizes <vk.xml> <vulkan_core.h> <output.c>
 * The XML reader is just enough for vk.xml: tags, attributes, comments.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct text {
   char *data;
   size_t size;
};

struct entry {
   char *name;  /* struct name */
   char *stype; /* VK_STRUCTURE_TYPE_... */
};

struct entries {
   struct entry *items;
   size_t count;
   size_t capacity;
};

static bool
read_file(const char *path, struct text *out)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      perror(path);
      return false;
   }
   size_t cap = 1 << 20, size = 0;
   char *data = malloc(cap + 1);
   if (!data) {
      fclose(f);
      fprintf(stderr, "out of memory\n");
      return false;
   }
   for (;;) {
      if (size == cap) {
         char *grown = realloc(data, cap * 2 + 1);
         if (!grown) {
            free(data);
            fclose(f);
            fprintf(stderr, "out of memory\n");
            return false;
         }
         data = grown;
         cap *= 2;
      }
      size_t n = fread(data + size, 1, cap - size, f);
      size += n;
      if (n == 0)
         break;
   }
   bool failed = ferror(f);
   fclose(f);
   if (failed) {
      fprintf(stderr, "%s: read error\n", path);
      free(data);
      return false;
   }
   data[size] = '\0';
   out->data = data;
   out->size = size;
   return true;
}

static bool
is_space(char c)
{
   return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool
is_ident(char c)
{
   return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* The end of the tag starting at p ('<'): the position of its '>', or NULL. */
static const char *
tag_end(const char *p)
{
   char quote = 0;
   for (; *p; p++) {
      if (quote) {
         if (*p == quote)
            quote = 0;
      } else if (*p == '"' || *p == '\'') {
         quote = *p;
      } else if (*p == '>') {
         return p;
      }
   }
   return NULL;
}

/*
 * Copies the value of attribute attr of the tag [tag, end) into buf (size
 * bufsize). Returns false when the tag has no such attribute or it is too
 * long. Entities are not decoded (vk.xml uses none in the values we read).
 */
static bool
tag_attr(const char *tag, const char *end, const char *attr, char *buf, size_t bufsize)
{
   const char *p = tag + 1;
   while (p < end && !is_space(*p) && *p != '>' && *p != '/')
      p++; /* element name */
   size_t attr_len = strlen(attr);
   while (p < end) {
      while (p < end && (is_space(*p) || *p == '/'))
         p++;
      const char *name = p;
      while (p < end && *p != '=' && !is_space(*p) && *p != '>')
         p++;
      size_t name_len = (size_t)(p - name);
      while (p < end && is_space(*p))
         p++;
      if (p >= end || *p != '=')
         return false;
      p++;
      while (p < end && is_space(*p))
         p++;
      if (p >= end || (*p != '"' && *p != '\''))
         return false;
      char quote = *p++;
      const char *value = p;
      while (p < end && *p != quote)
         p++;
      if (p >= end)
         return false;
      size_t value_len = (size_t)(p - value);
      p++;
      if (name_len == attr_len && memcmp(name, attr, attr_len) == 0) {
         if (value_len + 1 > bufsize)
            return false;
         memcpy(buf, value, value_len);
         buf[value_len] = '\0';
         return true;
      }
   }
   return false;
}

/* True when the comma-separated list contains item. */
static bool
list_has(const char *list, const char *item)
{
   size_t len = strlen(item);
   for (const char *p = list; *p;) {
      const char *comma = strchr(p, ',');
      size_t n = comma ? (size_t)(comma - p) : strlen(p);
      if (n == len && memcmp(p, item, len) == 0)
         return true;
      if (!comma)
         break;
      p = comma + 1;
   }
   return false;
}

/* True when "typedef struct <name> {" appears in the header. */
static bool
header_has_struct(const struct text *h, const char *name)
{
   char needle[300];
   int n = snprintf(needle, sizeof(needle), "typedef struct %s {", name);
   if (n < 0 || (size_t)n >= sizeof(needle))
      return false;
   return strstr(h->data, needle) != NULL;
}

/* True when the header defines the enumerant: "<ws>NAME<ws>=" as a whole word. */
static bool
header_has_enumerant(const struct text *h, const char *name)
{
   size_t len = strlen(name);
   for (const char *p = strstr(h->data, name); p; p = strstr(p + 1, name)) {
      if (p == h->data || !is_space(p[-1]))
         continue;
      const char *q = p + len;
      if (is_ident(*q))
         continue;
      while (is_space(*q))
         q++;
      if (*q == '=')
         return true;
   }
   return false;
}

static char *
dup_string(const char *s)
{
   size_t n = strlen(s) + 1;
   char *d = malloc(n);
   if (d)
      memcpy(d, s, n);
   return d;
}

static bool
entries_add(struct entries *e, const char *name, const char *stype)
{
   for (size_t i = 0; i < e->count; i++) {
      if (strcmp(e->items[i].name, name) == 0 || strcmp(e->items[i].stype, stype) == 0)
         return true; /* one entry per struct and per sType */
   }
   if (e->count == e->capacity) {
      size_t cap = e->capacity ? e->capacity * 2 : 256;
      struct entry *grown = realloc(e->items, cap * sizeof(*grown));
      if (!grown)
         return false;
      e->items = grown;
      e->capacity = cap;
   }
   char *n = dup_string(name);
   char *s = dup_string(stype);
   if (!n || !s) {
      free(n);
      free(s);
      return false;
   }
   e->items[e->count].name = n;
   e->items[e->count].stype = s;
   e->count++;
   return true;
}

static void
entries_free(struct entries *e)
{
   for (size_t i = 0; i < e->count; i++) {
      free(e->items[i].name);
      free(e->items[i].stype);
   }
   free(e->items);
}

/*
 * Reads the members of the struct whose body starts at p (just after the
 * opening tag). On return *stype holds the sType member's values attribute or
 * is empty. Returns the position after the closing </type>, or NULL when the
 * body does not have the expected shape.
 */
static const char *
parse_struct_body(const char *p, char *stype, size_t stype_size)
{
   stype[0] = '\0';
   for (;;) {
      while (is_space(*p))
         p++;
      if (strncmp(p, "</type>", 7) == 0)
         return p + 7;
      if (strncmp(p, "<!--", 4) == 0) {
         const char *e = strstr(p, "-->");
         if (!e)
            return NULL;
         p = e + 3;
      } else if (strncmp(p, "<comment", 8) == 0) {
         const char *e = strstr(p, "</comment>");
         if (!e)
            return NULL;
         p = e + 10;
      } else if (strncmp(p, "<member", 7) == 0 && (is_space(p[7]) || p[7] == '>')) {
         const char *te = tag_end(p);
         const char *e = te ? strstr(te, "</member>") : NULL;
         if (!e)
            return NULL;
         /* The member's name is its <name> element. */
         const char *nm = strstr(te, "<name>");
         if (nm && nm < e && strncmp(nm + 6, "sType</name>", 12) == 0 && !stype[0]) {
            char values[256];
            if (tag_attr(p, te, "values", values, sizeof(values)) &&
                strncmp(values, "VK_STRUCTURE_TYPE_", 18) == 0 && !strchr(values, ',')) {
               snprintf(stype, stype_size, "%s", values);
            }
         }
         p = e + 9;
      } else {
         return NULL;
      }
   }
}

static bool
collect(const struct text *xml, const struct text *core, struct entries *out)
{
   const char *p = xml->data;
   while ((p = strstr(p, "<type")) != NULL) {
      if (!is_space(p[5])) {
         p += 5;
         continue;
      }
      const char *te = tag_end(p);
      if (!te) {
         fprintf(stderr, "vk.xml: unterminated <type> tag\n");
         return false;
      }
      char category[32], name[256], alias[8], api[64];
      bool self_closing = te[-1] == '/';
      if (!tag_attr(p, te, "category", category, sizeof(category)) ||
          strcmp(category, "struct") != 0 || self_closing) {
         p = te + 1;
         continue;
      }
      if (!tag_attr(p, te, "name", name, sizeof(name))) {
         fprintf(stderr, "vk.xml: struct without a name near offset %zu\n",
                 (size_t)(p - xml->data));
         return false;
      }
      bool skip = tag_attr(p, te, "alias", alias, sizeof(alias)) ||
                  (tag_attr(p, te, "api", api, sizeof(api)) && !list_has(api, "vulkan"));
      char stype[256];
      const char *next = parse_struct_body(te + 1, stype, sizeof(stype));
      if (!next) {
         fprintf(stderr, "vk.xml: cannot read the members of %s\n", name);
         return false;
      }
      p = next;
      if (skip || !stype[0])
         continue;
      if (!header_has_struct(core, name) || !header_has_enumerant(core, stype))
         continue;
      if (!entries_add(out, name, stype)) {
         fprintf(stderr, "out of memory\n");
         return false;
      }
   }
   return true;
}

static bool
write_output(const char *path, const char *xml_path, const struct entries *e)
{
   FILE *f = fopen(path, "w");
   if (!f) {
      perror(path);
      return false;
   }
   fprintf(f, "/* Generated by gen_struct_sizes from %s and vulkan_core.h; do not edit. */\n",
           xml_path);
   fprintf(f, "#include \"lyr_pnext.h\"\n\n");
   fprintf(f, "/* %zu structs with an sType in vulkan_core.h. */\n", e->count);
   fprintf(f, "size_t\nlyr_struct_size_core(VkStructureType stype)\n{\n");
   fprintf(f, "   switch (stype) {\n");
   for (size_t i = 0; i < e->count; i++) {
      fprintf(f, "   case %s:\n      return sizeof(%s);\n", e->items[i].stype, e->items[i].name);
   }
   fprintf(f, "   default:\n      return 0;\n   }\n}\n");
   bool failed = ferror(f) != 0;
   if (fclose(f) != 0)
      failed = true;
   if (failed) {
      fprintf(stderr, "%s: write error\n", path);
      remove(path);
   }
   return !failed;
}

int
main(int argc, char **argv)
{
   if (argc != 4) {
      fprintf(stderr, "usage: %s <vk.xml> <vulkan_core.h> <output.c>\n", argv[0]);
      return 2;
   }
   struct text xml = {0}, core = {0};
   struct entries entries = {0};
   int status = 1;
   if (!read_file(argv[1], &xml))
      goto done;
   if (!read_file(argv[2], &core))
      goto done;
   if (!collect(&xml, &core, &entries))
      goto done;
   if (entries.count < 100) {
      fprintf(stderr, "%s: only %zu structs found; is this vk.xml?\n", argv[1], entries.count);
      goto done;
   }
   if (!write_output(argv[3], argv[1], &entries))
      goto done;
   status = 0;
done:
   entries_free(&entries);
   free(xml.data);
   free(core.data);
   return status;
}
