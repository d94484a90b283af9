/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * PNG reading as luma and PNG writing (png_io.h), with libpng's classic
 * interface for reading (its transforms bring every PNG to 8-bit grey or RGB
 * samples) and its simplified interface for writing.
 */
#include "png_io.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PNG_IO_MAX_EXTENT 16384u

struct read_state {
   FILE *file;
   png_structp png;
   png_infop info;
   uint8_t *rows; /* the decoded image, rowbytes * height */
   char *err;
   size_t err_len;
};

static void
on_error(png_structp png, png_const_charp msg)
{
   struct read_state *s = png_get_error_ptr(png);
   snprintf(s->err, s->err_len, "%s", msg);
   png_longjmp(png, 1);
}

static void
on_warning(png_structp png, png_const_charp msg)
{
   (void)png;
   (void)msg; /* ancillary-chunk complaints do not stop a read */
}

/* Decodes into s->rows; the setjmp lives here so that no local of the caller is
 * modified after it. */
static bool
decode(struct read_state *s, uint32_t *width, uint32_t *height, unsigned *channels)
{
   if (setjmp(png_jmpbuf(s->png)))
      return false;
   png_init_io(s->png, s->file);
   png_read_info(s->png, s->info);
   png_uint_32 w = png_get_image_width(s->png, s->info);
   png_uint_32 h = png_get_image_height(s->png, s->info);
   if (w == 0 || h == 0 || w > PNG_IO_MAX_EXTENT || h > PNG_IO_MAX_EXTENT) {
      snprintf(s->err, s->err_len, "%ux%u pixels: want 1 to %u in each direction", (unsigned)w,
               (unsigned)h, PNG_IO_MAX_EXTENT);
      return false;
   }
   /* Palette to RGB, grey below 8 bits to 8, 16 bits to their top 8, alpha away. */
   png_set_expand(s->png);
   png_set_strip_16(s->png);
   png_set_strip_alpha(s->png);
   png_set_interlace_handling(s->png);
   png_read_update_info(s->png, s->info);
   png_byte ch = png_get_channels(s->png, s->info);
   size_t rowbytes = png_get_rowbytes(s->png, s->info);
   if ((ch != 1 && ch != 3) || rowbytes != (size_t)w * ch) {
      snprintf(s->err, s->err_len, "unexpected layout after conversion (%u channels)", ch);
      return false;
   }
   s->rows = malloc(rowbytes * h);
   png_bytep *ptrs = s->rows ? malloc(h * sizeof(*ptrs)) : NULL;
   if (!ptrs) {
      snprintf(s->err, s->err_len, "out of memory");
      return false;
   }
   for (png_uint_32 y = 0; y < h; y++)
      ptrs[y] = s->rows + (size_t)y * rowbytes;
   /* png_read_image longjmps on a damaged file: ptrs must be freed either way. */
   if (setjmp(png_jmpbuf(s->png))) {
      free(ptrs);
      return false;
   }
   png_read_image(s->png, ptrs);
   png_read_end(s->png, NULL);
   free(ptrs);
   *width = w;
   *height = h;
   *channels = ch;
   return true;
}

bool
png_read_luma(const char *path, uint32_t *width, uint32_t *height, uint8_t **luma, char *err,
              size_t err_len)
{
   char msg[256] = "";
   struct read_state s = {.err = msg, .err_len = sizeof(msg)};
   s.file = fopen(path, "rb");
   if (!s.file) {
      snprintf(err, err_len, "%s: cannot open", path);
      return false;
   }
   unsigned char sig[8];
   if (fread(sig, 1, sizeof(sig), s.file) != sizeof(sig) || png_sig_cmp(sig, 0, sizeof(sig))) {
      fclose(s.file);
      snprintf(err, err_len, "%s: not a PNG file", path);
      return false;
   }
   rewind(s.file);
   s.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
   s.info = s.png ? png_create_info_struct(s.png) : NULL;
   uint32_t w = 0, h = 0;
   unsigned ch = 0;
   bool good = s.info && decode(&s, &w, &h, &ch);
   if (s.png)
      png_destroy_read_struct(&s.png, s.info ? &s.info : NULL, NULL);
   fclose(s.file);
   if (!good) {
      free(s.rows);
      snprintf(err, err_len, "%s: %s", path, msg[0] ? msg : "libpng could not start");
      return false;
   }
   if (ch == 3) {
      /* In place: pixel i's luma goes to byte i, behind the RGB bytes still unread. */
      size_t n = (size_t)w * h;
      for (size_t i = 0; i < n; i++)
         s.rows[i] = png_luma(s.rows[3 * i], s.rows[3 * i + 1], s.rows[3 * i + 2]);
   }
   *width = w;
   *height = h;
   *luma = s.rows;
   return true;
}

bool
png_write(const char *path, uint32_t width, uint32_t height, unsigned channels,
          const uint8_t *pixels, char *err, size_t err_len)
{
   png_image image;
   memset(&image, 0, sizeof(image));
   image.version = PNG_IMAGE_VERSION;
   image.width = width;
   image.height = height;
   image.format = channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
   if ((channels != 1 && channels != 3) ||
       !png_image_write_to_file(&image, path, 0, pixels, (png_int_32)(width * channels), NULL)) {
      snprintf(err, err_len, "%s: %s", path,
               channels != 1 && channels != 3 ? "1 or 3 channels" : image.message);
      png_image_free(&image);
      return false;
   }
   return true;
}
