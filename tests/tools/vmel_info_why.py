#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# vmel-info --json is well-formed JSON with the text report's content, and every extension,
# feature, shader stage and tensor format feature it reports as not offered has a "why not"
# reason; with the tensor layer missing or above the graph layer, the reasons name that.
#   vmel_info_why.py VMEL_INFO
import json
import subprocess
import sys

tool = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(*args):
    p = subprocess.run([tool, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout


def info(*layers):
    args = ["--json"] + (["--layers", ",".join(layers)] if layers else [])
    rc, out = run(*args)
    try:
        doc = json.loads(out)
    except json.JSONDecodeError as e:
        print(out)
        sys.exit(f"vmel-info {' '.join(args)}: not JSON: {e}")
    return rc, doc


# 1. The default layers: everything not offered has a reason.
rc, doc = info()
check(rc == 0, f"vmel-info --json exited {rc}")
check(doc["layers"] == ["VK_LAYER_ML_Graph_Emulation", "VK_LAYER_ML_Tensor_Emulation"],
      "layers")
check(len(doc["devices"]) >= 1, "no device")
STAGES = {"VERTEX": 0x1, "FRAGMENT": 0x10}
for dev in doc["devices"]:
    why = dev["why_not"]
    name = dev["deviceName"]
    for ext, e in dev["extensions"].items():
        check(e["available"] or ext in why, f"{name}: {ext} missing without a reason")
    check(dev["extensions"]["VK_ARM_tensors"]["available"], f"{name}: no VK_ARM_tensors")
    check(dev["extensions"]["VK_ARM_data_graph"]["available"], f"{name}: no VK_ARM_data_graph")
    for struct in ("VkPhysicalDeviceTensorFeaturesARM", "VkPhysicalDeviceDataGraphFeaturesARM"):
        for feature, on in dev[struct].items():
            check(on or feature in why, f"{name}: {feature} off without a reason")
    stages = dev["VkPhysicalDeviceTensorPropertiesARM"]["shaderTensorSupportedStages"]
    for stage, bit in STAGES.items():
        check(stages & bit or f"shaderTensorSupportedStages {stage}" in why,
              f"{name}: {stage} stage without a reason")
    bits = {"shader": 1 << 39, "data graph": 1 << 48}  # VK_FORMAT_FEATURE_2_TENSOR_*_BIT_ARM
    for fmt, f in dev["tensor_formats"].items():
        for what, bit in bits.items():
            check(f["linearTilingTensorFeatures"] & bit or f"{fmt} {what}" in why,
                  f"{name}: {fmt} {what} without a reason")
        check(f["optimalTilingTensorFeatures"] & (1 << 43) or f"{fmt} image aliasing" in why,
              f"{name}: {fmt} image aliasing without a reason")
    tosa = [op["tosa"] for q in dev["queue_families"] for op in q["operations"] if "tosa" in op]
    check(tosa, f"{name}: no TOSA properties")
    for t in tosa:
        listed = {p["name"] for p in t["profiles"] + t["extensions"]}
        for n in ("PRO-INT", "PRO-FP", "EXT-INT16", "EXT-BF16", "EXT-FFT"):
            check(n in listed or f"TOSA {n}" in why, f"{name}: TOSA {n} missing without a reason")

# The text report has the same reasons.
rc, text = run()
for item in doc["devices"][0]["why_not"]:
    check(f"    {item}: " in text, f"text report lacks the reason for {item}")
check("Why not:" in text, "text report has no 'Why not:'")

# 2. The tensor layer not enabled.
rc, doc = info("VK_LAYER_ML_Graph_Emulation")
why = doc["devices"][0]["why_not"]
check(rc == 1, "exit status 1 without the tensor layer")
check("VK_LAYER_ML_Tensor_Emulation is not enabled" in why.get("VK_ARM_tensors", ""),
      f"tensor layer missing: {why.get('VK_ARM_tensors')}")
check("needs VK_ARM_tensors below it" in why.get("VK_ARM_data_graph", ""),
      f"tensor layer missing: {why.get('VK_ARM_data_graph')}")

# 3. Both, in the wrong order (tensor above graph).
rc, doc = info("VK_LAYER_ML_Tensor_Emulation", "VK_LAYER_ML_Graph_Emulation")
why = doc["devices"][0]["why_not"]
check("VK_ARM_tensors" not in why, "wrong order: VK_ARM_tensors should be offered")
check("is above VK_LAYER_ML_Graph_Emulation" in why.get("VK_ARM_data_graph", ""),
      f"wrong order: {why.get('VK_ARM_data_graph')}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("vmel-info --json parses; every missing item has a reason; the layer cases name theirs")
