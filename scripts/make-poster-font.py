# Derives the poster font src/assets/fonts/Inter-SemiBold.ttf from Inter 600 SemiBold (SIL OFL 1.1), once, by hand:
#   python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools==4.66.1
#   /tmp/ft/bin/python scripts/make-poster-font.py Inter_600SemiBold.ttf src/assets/fonts/Inter-SemiBold.ttf
# (the source TTF is in the npm package @expo-google-fonts/inter@0.4.2, 600SemiBold/Inter_600SemiBold.ttf).
# What it changes, and why (see src/assets/fonts/README.md): units per em 2048 -> 1000 (integer PDF widths, smaller
# glyph coordinates), Latin/Greek/Cyrillic and punctuation only, no hinting, kerning and mark positioning kept.
import sys
from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.ttLib.scaleUpem import scale_upem
src, dst = sys.argv[1], sys.argv[2]
font = TTFont(src)
scale_upem(font, 1000)
opts = subset.Options()
opts.layout_features = ["kern", "ccmp", "locl", "mark", "mkmk"]
opts.hinting = False
opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
opts.notdef_outline = True
opts.recalc_bounds = True
sub = subset.Subsetter(opts)
ranges = [(0x20, 0x7E), (0xA0, 0x17F), (0x18F, 0x18F), (0x192, 0x192), (0x1A0, 0x1B0), (0x218, 0x21B), (0x259, 0x259),
          (0x2C6, 0x2DD), (0x370, 0x3FF), (0x400, 0x4FF), (0x1E00, 0x1EFF), (0x2000, 0x206F), (0x20A0, 0x20CF),
          (0x2100, 0x2152), (0x2190, 0x2199), (0x2212, 0x2212), (0x2215, 0x2215), (0x25CF, 0x25CF), (0xFFFD, 0xFFFD)]
sub.populate(unicodes=[u for a, b in ranges for u in range(a, b + 1)])
sub.subset(font)
font.save(dst)
print(dst, font["head"].unitsPerEm, len(font.getGlyphOrder()), "glyphs")
