#!/usr/bin/env python3
"""Renders a terminal capture (text with ANSI SGR color codes, as written by
`tmux capture-pane -e -p`) as an SVG picture of a dark terminal window, for
rsvg-convert to turn into a PNG. Usage: ansi2svg.py CAPTURE > OUT.svg

Understands what the capture holds: reset, bold, the 8/16 basic colors and
the 256-color forms 38;5;N / 48;5;N, and default fg/bg (39/49).
"""
import re
import sys
from xml.sax.saxutils import escape

CHAR_W, LINE_H, PAD = 8.4, 17, 14
FONT = "DejaVu Sans Mono, monospace"
DEFAULT_FG, DEFAULT_BG = "#d0d0d0", "#1c1c1c"
BASIC = ["#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd",
         "#00cdcd", "#e5e5e5", "#7f7f7f", "#ff0000", "#00ff00", "#ffff00",
         "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"]
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def xterm(n):
    if n < 16:
        return BASIC[n]
    if n < 232:
        n -= 16
        level = [0, 95, 135, 175, 215, 255]
        r, g, b = level[n // 36], level[(n // 6) % 6], level[n % 6]
    else:
        r = g = b = 8 + 10 * (n - 232)
    return f"#{r:02x}{g:02x}{b:02x}"


def apply(codes, state):
    nums = [int(c) if c else 0 for c in codes.split(";")] if codes else [0]
    i = 0
    while i < len(nums):
        n = nums[i]
        if n == 0:
            state.update(fg=None, bg=None, bold=False)
        elif n == 1:
            state["bold"] = True
        elif n == 22:
            state["bold"] = False
        elif n in (38, 48) and i + 2 < len(nums) and nums[i + 1] == 5:
            state["fg" if n == 38 else "bg"] = xterm(nums[i + 2])
            i += 2
        elif 30 <= n <= 37:
            state["fg"] = BASIC[n - 30]
        elif 90 <= n <= 97:
            state["fg"] = BASIC[n - 90 + 8]
        elif 40 <= n <= 47:
            state["bg"] = BASIC[n - 40]
        elif n == 39:
            state["fg"] = None
        elif n == 49:
            state["bg"] = None
        i += 1


def runs(line, state):
    """(column, text, fg, bg, bold) pieces of one line."""
    col, pos, out = 0, 0, []
    for m in list(SGR.finditer(line)) + [None]:
        end = m.start() if m else len(line)
        text = line[pos:end]
        if text:
            out.append((col, text, state["fg"], state["bg"], state["bold"]))
            col += len(text)
        if m:
            apply(m.group(1), state)
            pos = m.end()
    return out


def main():
    lines = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
    state = {"fg": None, "bg": None, "bold": False}
    pieces = [runs(line, state) for line in lines]
    cols = max((c + len(t) for p in pieces for c, t, *_ in p), default=0)
    width = round(2 * PAD + CHAR_W * cols)
    height = round(2 * PAD + LINE_H * len(lines))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}">',
           f'<rect width="{width}" height="{height}" rx="8" fill="{DEFAULT_BG}"/>',
           f'<g font-family="{FONT}" font-size="14px" xml:space="preserve">']
    for row, line in enumerate(pieces):
        y = PAD + row * LINE_H
        for col, text, fg, bg, bold in line:
            x = PAD + col * CHAR_W
            if bg:
                out.append(f'<rect x="{x:.1f}" y="{y}" width="{CHAR_W * len(text):.1f}" '
                           f'height="{LINE_H}" fill="{bg}"/>')
            if text.strip():
                weight = ' font-weight="bold"' if bold else ""
                out.append(f'<text x="{x:.1f}" y="{y + 13}" fill="{fg or DEFAULT_FG}"'
                           f'{weight} textLength="{CHAR_W * len(text):.1f}">'
                           f'{escape(text)}</text>')
    out.append("</g></svg>")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
