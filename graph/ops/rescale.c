/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA RESCALE (TOSA 1.0.1 "Type Conversion"). TOSA.001000.1 operands: the
 * attributes scale32, rounding_mode, per_channel, input_unsigned and
 * output_unsigned, then input, multiplier [NC], shift [NC], input_zp [1] and
 * output_zp [1], where NC is the last dimension when per_channel, else 1.
 * Every ERROR_IF of RESCALE.tosac is decided here, and so are the REQUIREs of
 * apply_scale_32/16 on the constants (multiplier >= 0, 2 <= shift <= 62).
 * The multiplier may be i32 always, or i16 when !scale32 (TOSA's mul_t; the
 * SPIR-V document lists i32 only, spec-facts §3.2); an i32 multiplier with
 * !scale32 must hold an i16 value. Decided in docs/decisions.md D15.
 */
#include "dg_op.h"

/* A zero point: ERROR_IFs of RESCALE.tosac (i8/u8 any value, u16 0 or 32768,
 * anything else 0) and its value, zero-extended when the side is unsigned. */
static VkResult
zero_point(struct dg_op_ctx *c, const char *name, enum dg_type type, bool is_unsigned,
           uint64_t bits, int64_t *value)
{
   uint32_t width = 8 * dg_type_size(type);
   *value = is_unsigned ? (int64_t)bits : dg_sign_extend(bits, width);
   if (type == DG_TYPE_I8)
      return VK_SUCCESS;
   if (type == DG_TYPE_I16 && is_unsigned) {
      if (bits != 0 && bits != 32768)
         return dg_op_fail(c, DG_ERR_OP_ZERO_POINT,
                           "ERROR_IF(is_same<T,i16_t>() && unsigned && %s != 0 && %s != 32768): "
                           "%s is %" PRIu64,
                           name, name, name, bits);
      return VK_SUCCESS;
   }
   if (bits != 0)
      return dg_op_fail(c, DG_ERR_OP_ZERO_POINT,
                        "ERROR_IF(!is_same<T,i8_t>() && (!is_same<T,i16_t>() || !unsigned) && "
                        "%s != 0): %s is %" PRId64 " for %s%s",
                        name, name, *value, is_unsigned ? "unsigned " : "", dg_type_name(type));
   return VK_SUCCESS;
}

/* The attribute ERROR_IFs of RESCALE.tosac, in its order. */
static VkResult
check_flags(struct dg_op_ctx *c, const struct dg_attrs_rescale *a, enum dg_type in, enum dg_type out)
{
   const char *rule = NULL;
   if (a->scale32 && in == DG_TYPE_I48)
      rule = "ERROR_IF(scale32 && is_same<in_t,i48_t>())";
   else if (!a->scale32 && a->rounding_mode == TOSA_ROUNDING_DOUBLE_ROUND)
      rule = "ERROR_IF(!scale32 && (rounding_mode == DOUBLE_ROUND))";
   else if (a->input_unsigned && a->output_unsigned)
      rule = "ERROR_IF(input_unsigned && output_unsigned)";
   else if (out == DG_TYPE_I32 && a->input_unsigned)
      rule = "ERROR_IF(is_same<out_t,i32_t>() && input_unsigned)";
   else if (in == DG_TYPE_I32 && a->output_unsigned)
      rule = "ERROR_IF(is_same<in_t,i32_t>() && output_unsigned)";
   else if (in == DG_TYPE_I48 && a->output_unsigned)
      rule = "ERROR_IF(is_same<in_t,i48_t>() && output_unsigned)";
   else if (in == DG_TYPE_I48 && a->input_unsigned)
      rule = "ERROR_IF(is_same<in_t,i48_t> && input_unsigned)";
   else if (in == DG_TYPE_I32 && a->input_unsigned)
      rule = "ERROR_IF(is_same<in_t,i32_t> && input_unsigned)";
   else if (out == DG_TYPE_I32 && a->output_unsigned)
      rule = "ERROR_IF(is_same<out_t,i32_t> && output_unsigned)";
   if (rule)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "%s: scale32 %d, rounding_mode %u, input_unsigned %d, output_unsigned %d, "
                        "%s -> %s",
                        rule, a->scale32, a->rounding_mode, a->input_unsigned, a->output_unsigned,
                        dg_type_name(in), dg_type_name(out));
   return VK_SUCCESS;
}

/* multiplier [NC] and shift [NC]: types, shapes, values (REQUIREs). */
static VkResult
decode_scales(struct dg_op_ctx *c, const struct dg_attrs_rescale *a, struct dg_node_scales *sc)
{
   struct dg_tensor_type mty, sty;
   char s[96];
   VkResult result;
   mty = dg_op_opnd(c, DG_OPND_RESCALE_multiplier)->ty;
   sty = dg_op_opnd(c, DG_OPND_RESCALE_shift)->ty;
   bool mul_type_ok = mty.type == DG_TYPE_I32 || (!a->scale32 && mty.type == DG_TYPE_I16);
   if (!mul_type_ok || mty.shape.rank != 1 || mty.shape.dim[0] != sc->channels)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                        "multiplier must be a tensor of i32%s of shape [NC] = [%u], not %s %s",
                        a->scale32 ? "" : " or i16", sc->channels, dg_type_name(mty.type),
                        dg_shape_str(&mty.shape, s, sizeof(s)));
   if (sty.type != DG_TYPE_I8 || sty.shape.rank != 1 || sty.shape.dim[0] != sc->channels)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                        "shift must be a tensor of i8 of shape [NC] = [%u], not %s %s", sc->channels,
                        dg_type_name(sty.type), dg_shape_str(&sty.shape, s, sizeof(s)));
   uint64_t bytes = (uint64_t)sc->channels * (sizeof(int32_t) + dg_type_size(mty.type) + 1);
   if (bytes > c->d->max_constant_bytes)
      return dg_op_fail(c, DG_ERR_CONSTANT_TOO_LARGE, "%u channels of scales", sc->channels);
   void *raw, *mult, *shift;
   if ((result = dg_add_blob(c->d, (uint64_t)sc->channels * dg_type_size(mty.type), &raw)) !=
           VK_SUCCESS ||
       (result = dg_add_blob(c->d, (uint64_t)sc->channels * sizeof(int32_t), &mult)) != VK_SUCCESS ||
       (result = dg_add_blob(c->d, sc->channels, &shift)) != VK_SUCCESS ||
       (result = dg_op_const_data(c, DG_OPND_RESCALE_multiplier, &mty, raw)) != VK_SUCCESS ||
       (result = dg_op_const_data(c, DG_OPND_RESCALE_shift, &sty, shift)) != VK_SUCCESS)
      return result;
   int32_t *m = mult;
   const int8_t *sh = shift;
   for (uint32_t ch = 0; ch < sc->channels; ch++) {
      m[ch] = (int32_t)dg_elem_int(mty.type, raw, ch);
      /* apply_scale_32/16: REQUIRE(multiplier >= 0); REQUIRE(2 <= shift && shift <= 62) */
      const char *fn = a->scale32 ? "apply_scale_32" : "apply_scale_16";
      if (m[ch] < 0)
         return dg_op_fail(c, DG_ERR_OP_REQUIRE,
                           "%s: REQUIRE(multiplier >= 0): multiplier[%u] is %d", fn, ch, m[ch]);
      if (!a->scale32 && m[ch] > INT16_MAX)
         return dg_op_fail(c, DG_ERR_OP_REQUIRE,
                           "multiplier[%u] is %d: with scale32 == false mul_t is i16", ch, m[ch]);
      if (sh[ch] < 2 || sh[ch] > 62)
         return dg_op_fail(c, DG_ERR_OP_REQUIRE,
                           "%s: REQUIRE(2 <= shift && shift <= 62): shift[%u] is %d", fn, ch,
                           sh[ch]);
   }
   sc->multiplier = m;
   sc->shift = sh;
   return VK_SUCCESS;
}

VkResult
dg_op_rescale_validate(struct dg_op_ctx *c)
{
   struct dg_attrs_rescale *a = &c->node->attrs.rescale;
   const struct dg_operand_value *in_zp = dg_op_opnd(c, DG_OPND_RESCALE_input_zp);
   const struct dg_operand_value *out_zp = dg_op_opnd(c, DG_OPND_RESCALE_output_zp);
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_RESCALE_input)->ty;
   int64_t in_value, out_value;
   VkResult result;
   if ((result = zero_point(c, "input_zp", in->type, a->input_unsigned, in_zp->bits, &in_value)) !=
           VK_SUCCESS ||
       (result = zero_point(c, "output_zp", c->out.type, a->output_unsigned, out_zp->bits,
                            &out_value)) != VK_SUCCESS ||
       (result = check_flags(c, a, in->type, c->out.type)) != VK_SUCCESS)
      return result;
   /* Zero-extended when the side is unsigned (u16 zero points: 0 or 32768). */
   a->input_zp = (int32_t)in_value;
   a->output_zp = (int32_t)out_value;
   /* ERROR_IF(per_channel && rank(input) < 1): Vulkan tensors have rank >= 1. */
   if (a->per_channel && in->shape.rank < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(per_channel && rank(input) < 1)");
   struct dg_node_scales *sc = &c->node->scales;
   sc->channels = a->per_channel ? (uint32_t)in->shape.dim[in->shape.rank - 1] : 1;
   return decode_scales(c, a, sc);
}
