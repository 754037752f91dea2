"""`tabletop-gui rulesets [--json]`: the rulesets and what they read and take."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tabletop_gui.rules import registry


def describe_all() -> list[dict[str, Any]]:
    out = []
    for rid in registry.RULESET_IDS:
        d = registry.get(rid).describe()
        d.setdefault("notes", list(registry.info(rid).notes))
        out.append(d)
    return out


def _fields(title: str, items: list[dict[str, Any]]) -> list[str]:
    if not items:
        return [f"  {title}: none"]
    out = [f"  {title}:"]
    for f in items:
        extra = []
        if f.get("required"):
            extra.append("required")
        if "default" in f:
            extra.append(f"default {json.dumps(f['default'])}")
        if f.get("choices"):
            extra.append("one of " + "/".join(f["choices"]))
        if "maximum" in f:
            extra.append(f"from {f['minimum']:g} to {f['maximum']:g}" if "minimum" in f
                         else f"at most {f['maximum']:g}")
        name = f.get("name", f.get("key"))
        text = f"    {name} ({f['type']}{', ' + ', '.join(extra) if extra else ''})"
        if f.get("help"):
            text += f": {f['help']}"
        out.append(text)
    return out


def render(described: list[dict[str, Any]]) -> str:
    lines: list[str] = []
    for d in described:
        grid = ", on a grid" if d["grid"] else ""
        lines.append(f"{d['id']}: {d['name']} ({d['models']}{grid}; attacks: "
                     f"{', '.join(d['attack_types'])})")
        lines += _fields("characteristics", d["characteristics"])
        lines += _fields("weapon fields", d["weapon_fields"])
        lines.append(f"  traits: {', '.join(d['traits']) or 'none'}")
        lines += _fields("state", d["state"])
        lines += _fields("situational options (--set)", d["situational_options"])
        lines += _fields("ruleset options (ruleset_options)", d["ruleset_options"])
        if d.get("notes"):
            lines.append("  interpretations:")
            lines += [f"    - {n}" for n in d["notes"]]
        lines.append("")
    return "\n".join(lines).rstrip()


def run(args: argparse.Namespace) -> int:
    described = describe_all()
    if args.json:
        print(json.dumps({"rulesets": described}))
    else:
        print(render(described))
    return 0
