/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-run's optical-flow files (tools/vmel-run/png_io.c, flow_vis.c): PNG
 * round trips of grey, RGB, RGBA and 16-bit grey files read as luma (each
 * value checked against the Rec. 601 integer weights computed here), refusals
 * of files that are not PNGs, and the flow colour wheel's known colours for
 * known directions and lengths.
 */
#include "test.h"

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flow_vis.h"
#include "png_io.h"

TEST_MAIN_STATE;

#define W 37
#define H 23

static char dir[64];

static const char *
tmp_path(const char *name)
{
   static char path[128];
   snprintf(path, sizeof(path), "%s/%s", dir, name);
   return path;
}

static void
check_luma_weights(void)
{
   test_set_context("luma weights");
   check_eq_u64(png_luma(0, 0, 0), 0);
   check_eq_u64(png_luma(255, 255, 255), 255);
   check_eq_u64(png_luma(255, 0, 0), 77);  /* 0.299 * 255 = 76.2 */
   check_eq_u64(png_luma(0, 255, 0), 149); /* 0.587 * 255 = 149.7 */
   check_eq_u64(png_luma(0, 0, 255), 29);  /* 0.114 * 255 = 29.1 */
   for (unsigned g = 0; g < 256; g++)
      ok(png_luma(g, g, g) == g, "grey %u stays", g);
}

static void
check_grey_round_trip(void)
{
   test_set_context("grey PNG");
   uint8_t px[W * H];
   for (unsigned i = 0; i < W * H; i++)
      px[i] = (uint8_t)(i * 7 + i / W);
   char err[256];
   ok(png_write(tmp_path("grey.png"), W, H, 1, px, err, sizeof(err)), "written: %s", err);
   uint32_t w = 0, h = 0;
   uint8_t *luma = NULL;
   ok(png_read_luma(tmp_path("grey.png"), &w, &h, &luma, err, sizeof(err)), "read: %s", err);
   check_eq_u64(w, W);
   check_eq_u64(h, H);
   ok(luma && memcmp(luma, px, sizeof(px)) == 0, "same values");
   free(luma);
}

static void
check_rgb_round_trip(void)
{
   test_set_context("RGB PNG");
   uint8_t px[W * H * 3];
   for (unsigned i = 0; i < W * H * 3; i++)
      px[i] = (uint8_t)(i * 13 + 5);
   char err[256];
   ok(png_write(tmp_path("rgb.png"), W, H, 3, px, err, sizeof(err)), "written: %s", err);
   uint32_t w = 0, h = 0;
   uint8_t *luma = NULL;
   ok(png_read_luma(tmp_path("rgb.png"), &w, &h, &luma, err, sizeof(err)), "read: %s", err);
   unsigned bad = 0;
   for (unsigned i = 0; luma && w == W && h == H && i < W * H; i++) {
      /* Rec. 601 in 1/256ths, computed independently of png_luma. */
      unsigned want = (77u * px[3 * i] + 150u * px[3 * i + 1] + 29u * px[3 * i + 2] + 128u) / 256u;
      bad += luma[i] != want;
   }
   ok(luma && w == W && h == H && bad == 0, "luma of every pixel (%u wrong)", bad);
   free(luma);
}

/* Files the simplified writer makes directly: RGBA (alpha ignored) and 16-bit grey. */
static void
check_other_layouts(void)
{
   test_set_context("RGBA and 16-bit PNGs");
   uint8_t rgba[W * H * 4];
   for (unsigned i = 0; i < W * H; i++) {
      rgba[4 * i] = (uint8_t)(i * 3);
      rgba[4 * i + 1] = (uint8_t)(i * 5);
      rgba[4 * i + 2] = (uint8_t)(i * 11);
      rgba[4 * i + 3] = (uint8_t)(i & 1 ? 0 : 255);
   }
   png_image img = {.version = PNG_IMAGE_VERSION, .width = W, .height = H,
                    .format = PNG_FORMAT_RGBA};
   ok(png_image_write_to_file(&img, tmp_path("rgba.png"), 0, rgba, W * 4, NULL), "RGBA written");
   char err[256];
   uint32_t w = 0, h = 0;
   uint8_t *luma = NULL;
   ok(png_read_luma(tmp_path("rgba.png"), &w, &h, &luma, err, sizeof(err)), "read: %s", err);
   unsigned bad = 0;
   for (unsigned i = 0; luma && i < W * H; i++)
      bad += luma[i] != png_luma(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]);
   ok(luma && bad == 0, "RGBA: alpha ignored (%u wrong)", bad);
   free(luma);

   uint16_t grey16[W * H];
   for (unsigned i = 0; i < W * H; i++)
      grey16[i] = (uint16_t)(i * 1789u);
   png_image img16 = {.version = PNG_IMAGE_VERSION, .width = W, .height = H,
                      .format = PNG_FORMAT_LINEAR_Y};
   ok(png_image_write_to_file(&img16, tmp_path("grey16.png"), 0, grey16, W, NULL),
      "16-bit written");
   luma = NULL;
   ok(png_read_luma(tmp_path("grey16.png"), &w, &h, &luma, err, sizeof(err)), "read: %s", err);
   bad = 0;
   for (unsigned i = 0; luma && i < W * H; i++)
      bad += luma[i] != grey16[i] >> 8;
   ok(luma && bad == 0, "16-bit: top 8 bits (%u wrong)", bad);
   free(luma);
}

static void
check_refusals(void)
{
   test_set_context("refusals");
   FILE *f = fopen(tmp_path("text.png"), "wb");
   if (f) {
      fputs("not a png at all", f);
      fclose(f);
   }
   char err[256] = "";
   uint32_t w, h;
   uint8_t *luma = NULL;
   ok(!png_read_luma(tmp_path("text.png"), &w, &h, &luma, err, sizeof(err)) && !luma,
      "a text file is refused");
   ok(strstr(err, "not a PNG") != NULL, "message: %s", err);
   /* A PNG cut in the middle of its data. */
   uint8_t px[W * H];
   memset(px, 99, sizeof(px));
   png_write(tmp_path("cut.png"), W, H, 1, px, err, sizeof(err));
   f = fopen(tmp_path("cut.png"), "r+b");
   if (f) {
      fseek(f, 0, SEEK_END);
      long len = ftell(f);
      fclose(f);
      ok(truncate(tmp_path("cut.png"), len / 2) == 0, "truncated");
   }
   ok(!png_read_luma(tmp_path("cut.png"), &w, &h, &luma, err, sizeof(err)), "a cut PNG is refused");
   ok(!png_read_luma(tmp_path("missing.png"), &w, &h, &luma, err, sizeof(err)),
      "a missing file is refused");
}

static void
check_color(float dx, float dy, float max_len, uint8_t r, uint8_t g, uint8_t b, const char *what)
{
   uint8_t rgb[3];
   flow_vis_color(dx, dy, max_len, rgb);
   ok(rgb[0] == r && rgb[1] == g && rgb[2] == b, "%s: (%u, %u, %u), want (%u, %u, %u)", what,
      rgb[0], rgb[1], rgb[2], r, g, b);
}

static void
check_color_wheel(void)
{
   test_set_context("flow colours");
   check_color(4, 0, 4, 255, 0, 0, "right: red");
   check_color(-4, 0, 4, 0, 255, 255, "left: cyan");
   check_color(0, 4, 4, 128, 255, 0, "down: chartreuse");
   check_color(0, -4, 4, 128, 0, 255, "up: violet");
   check_color(2, 2 * sqrtf(3.0f), 4, 255, 255, 0, "60 degrees below the x axis: yellow");
   check_color(0, 0, 4, 255, 255, 255, "zero: white");
   check_color(2, 0, 4, 255, 128, 128, "half length right: half saturated");
   check_color(8, 0, 4, 255, 0, 0, "longer than the maximum: clamped");
   check_color(NAN, 0, 4, 0, 0, 0, "not finite: black");
   check_color(1, 0, 0, 255, 255, 255, "all-zero field: white");

   float flow[4 * 2] = {1, 0, -2, 0, 0, 0, INFINITY, 1};
   uint8_t rgb[4 * 3];
   float max = flow_vis_image(flow, 2, 2, rgb);
   ok(fabsf(max - 2.0f) < 1e-6f, "longest finite vector %g", max);
   ok(rgb[0] == 255 && rgb[1] == 128 && rgb[2] == 128, "pixel 0: half-saturated red");
   ok(rgb[3] == 0 && rgb[4] == 255 && rgb[5] == 255, "pixel 1: cyan");
   ok(rgb[6] == 255 && rgb[7] == 255 && rgb[8] == 255, "pixel 2: white");
   ok(rgb[9] == 0 && rgb[10] == 0 && rgb[11] == 0, "pixel 3: black");
}

int
main(void)
{
   snprintf(dir, sizeof(dir), "/tmp/vmel_png_XXXXXX");
   if (!mkdtemp(dir))
      return test_skip("no temporary directory");
   check_luma_weights();
   check_grey_round_trip();
   check_rgb_round_trip();
   check_other_layouts();
   check_refusals();
   check_color_wheel();
   static const char *files[] = {"grey.png", "rgb.png", "rgba.png", "grey16.png", "text.png",
                                 "cut.png"};
   for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++)
      unlink(tmp_path(files[i]));
   rmdir(dir);
   return test_done();
}
