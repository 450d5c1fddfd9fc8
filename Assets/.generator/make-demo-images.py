#!/usr/bin/env python3
"""Makes KioskCarousel's demo images: procedural scenes in mixed aspect ratios.

Run from the repository root: python3 Assets/.generator/make-demo-images.py
Needs python3-numpy and cjpeg (libjpeg-turbo-progs). The output is committed, so nobody
needs to run this to use the demo. Deterministic: the same seed gives the same files.
"""
import os, subprocess, tempfile
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
rng = np.random.default_rng(20261122)

def grid(w, h):
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    return x / w, y / h

def lerp(a, b, t):
    t = np.clip(t, 0, 1)[..., None]
    return np.asarray(a, np.float32) * (1 - t) + np.asarray(b, np.float32) * t

def noise(w, h, scale, octaves=4):
    """Smooth value noise: a sum of bilinearly upsampled random grids."""
    total = np.zeros((h, w), np.float32)
    amp = 1.0
    for o in range(octaves):
        cells = int(scale * 2 ** o) + 2
        g = rng.random((cells, cells)).astype(np.float32)
        ys = np.linspace(0, cells - 1.001, h); xs = np.linspace(0, cells - 1.001, w)
        y0 = ys.astype(int); x0 = xs.astype(int); fy = (ys - y0)[:, None]; fx = (xs - x0)[None, :]
        a = g[y0][:, x0]; b = g[y0][:, x0 + 1]; c = g[y0 + 1][:, x0]; d = g[y0 + 1][:, x0 + 1]
        total += amp * ((a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy)
        amp *= 0.5
    return total / (2 - 2 ** (1 - octaves))

def grain(img, amount=4.0):
    return img + rng.normal(0, amount, img.shape).astype(np.float32)

def save(name, img):
    img = np.clip(grain(img), 0, 255).astype(np.uint8)
    h, w, _ = img.shape
    with tempfile.NamedTemporaryFile(suffix=".ppm", delete=False) as f:
        f.write(b"P6 %d %d 255\n" % (w, h)); f.write(img.tobytes()); ppm = f.name
    subprocess.run(["cjpeg", "-quality", "84", "-optimize", "-outfile", os.path.join(OUT, name + ".jpg"), ppm], check=True)
    os.unlink(ppm)

def sunset(w=1200, h=800):
    x, y = grid(w, h)
    sky = lerp(lerp([40, 20, 90], [250, 120, 60], y / 0.55), [255, 190, 90], (y - 0.45) / 0.1)
    sun = np.exp(-(((x - 0.62) * w / h) ** 2 + (y - 0.5) ** 2) / 0.004)[..., None]
    img = sky + sun * 200
    sea = y > 0.58
    waves = 0.5 + 0.5 * np.sin(y * 400 + noise(w, h, 6) * 8)
    glitter = np.exp(-((x - 0.62) * 9) ** 2) * waves * (1.2 - y)
    water = lerp([30, 20, 70], [200, 90, 70], 1 - (y - 0.58) / 0.42 * 1.3)[...] + glitter[..., None] * np.array([255, 170, 90])
    img[sea] = water[sea]
    return img

def mountains(w=1200, h=800):
    x, y = grid(w, h)
    img = lerp([120, 160, 220], [250, 210, 180], y / 0.6)
    colors = [[150, 160, 190], [100, 115, 150], [60, 75, 105], [30, 40, 60]]
    for i, c in enumerate(colors):
        ridge = 0.35 + i * 0.12 + 0.12 * np.sin(x[0] * (5 + i * 3) + i) * 0.5 + (noise(w, 1, 4 + i * 3)[0] - 0.5) * 0.25
        mask = y > ridge[None, :]
        shade = lerp(c, np.array(c) * 0.6, (y - ridge[None, :]) * 2)
        img[mask] = shade[mask]
    return img

def aurora(w=1200, h=800):
    x, y = grid(w, h)
    img = lerp([5, 10, 30], [15, 30, 60], y)
    stars = (rng.random((h, w)) > 0.9985).astype(np.float32)
    img += stars[..., None] * 220
    for i in range(3):
        centre = 0.3 + 0.08 * i + 0.08 * np.sin(x[0] * 6 + i * 2) + (noise(w, 1, 5)[0] - 0.5) * 0.1
        band = np.exp(-((y - centre[None, :]) / (0.05 + 0.02 * i)) ** 2) * (0.6 + 0.4 * np.sin(x[0] * 60 + i)[None, :] ** 2)
        img += band[..., None] * np.array([[60, 230, 140], [90, 200, 220], [170, 90, 210]][i]) * 0.9
    ground = y > 0.82 + 0.03 * np.sin(x * 9)
    img[ground] = [8, 12, 18]
    return img

def dunes(w=2400, h=800):
    x, y = grid(w, h)
    img = lerp([90, 150, 230], [240, 220, 200], y / 0.5)
    for i in range(4):
        crest = 0.45 + i * 0.13 + 0.07 * np.sin(x[0] * (7 + i * 4) + i * 1.7)
        mask = y > crest[None, :]
        slope = np.cos(x[0] * (7 + i * 4) + i * 1.7)[None, :]
        base = np.array([230, 170, 100]) * (0.75 + 0.08 * i)
        shade = np.broadcast_to(base * (0.75 + 0.25 * slope)[..., None], img.shape)
        img[mask] = shade[mask]
    return img

def lighthouse(w=800, h=1200):
    x, y = grid(w, h)
    img = lerp([90, 170, 230], [220, 240, 250], y / 0.7)
    clouds = noise(w, h, 4) * (1 - y)
    img = lerp(img, [255, 255, 255], (clouds - 0.45) * 2)
    tower = (abs(x - 0.5) < 0.07 + 0.05 * y) & (y > 0.18) & (y < 0.85)
    stripes = ((y * 12).astype(int) % 2 == 0)
    img[tower & stripes] = [220, 40, 40]
    img[tower & ~stripes] = [245, 245, 245]
    lamp = (abs(x - 0.5) < 0.06) & (y > 0.12) & (y <= 0.18)
    img[lamp] = [255, 220, 120]
    rocks = y > 0.85 + 0.02 * np.sin(x * 20)
    img[rocks] = lerp([60, 60, 70], [30, 30, 40], (y - 0.85) * 5)[rocks]
    return img

def forest(w=800, h=1200):
    x, y = grid(w, h)
    img = lerp([10, 20, 50], [60, 60, 110], y)
    moon = ((x - 0.7) * w / h) ** 2 + (y - 0.2) ** 2 < 0.004
    img[moon] = [250, 245, 220]
    for i in range(18):
        cx = rng.random(); top = 0.35 + rng.random() * 0.3; width = 0.04 + rng.random() * 0.05
        tree = (y > top) & (abs(x - cx) < (y - top) * width * 3)
        img[tree] = np.array([10, 30, 20]) + i
    return img

def rings(w=1000, h=1000):
    x, y = grid(w, h)
    r = np.hypot(x - 0.5, y - 0.5); a = np.arctan2(y - 0.5, x - 0.5)
    v = 0.5 + 0.5 * np.sin(r * 60 + np.sin(a * 6) * 2)
    return lerp([20, 40, 90], [240, 180, 60], v * (1 - r))

def tiles(w=1000, h=1000):
    x, y = grid(w, h)
    n = 10
    cx = (x * n).astype(int); cy = (y * n).astype(int)
    palette = np.array([[230, 90, 70], [250, 200, 90], [60, 150, 170], [40, 70, 110], [240, 235, 220]])
    idx = (cx * 7 + cy * 3 + (cx * cy) % 5) % 5
    img = palette[idx].astype(np.float32)
    fx = x * n - cx; fy = y * n - cy
    grout = (fx < 0.06) | (fy < 0.06)
    img[grout] = [245, 240, 230]
    return img * (0.9 + 0.1 * noise(w, h, 30)[..., None])

def hills(w=1200, h=800):
    x, y = grid(w, h)
    img = lerp([110, 170, 240], [220, 235, 250], y / 0.5)
    clouds = noise(w, h, 3)
    img = lerp(img, [255, 255, 255], (clouds - 0.55) * 3 * (y < 0.5))
    for i in range(3):
        crest = 0.5 + i * 0.15 + 0.06 * np.sin(x[0] * (4 + i * 2) + i * 2)
        mask = y > crest[None, :]
        shade = lerp([120 - i * 30, 190 - i * 30, 80 - i * 20], [60, 120, 40], (y - crest[None, :]) * 3)
        img[mask] = shade[mask]
    return img

def skyline(w=2400, h=800):
    x, y = grid(w, h)
    img = lerp([10, 10, 40], [90, 40, 90], y)
    px = (x * w).astype(int); py = (y * h).astype(int)
    heights = rng.random(60) * 0.45 + 0.25
    b = (px // 40)
    top = heights[b % 60]
    building = y > 1 - top
    img[building] = [20, 22, 35]
    windows = building & (px % 40 > 8) & (px % 40 < 32) & (py % 28 > 10) & (rng.random((h, w)) > 0.0)
    lit = ((px // 40 * 31 + py // 28 * 17) % 7) < 3
    img[windows & lit & (px % 8 < 5) & (py % 28 < 22)] = [255, 210, 120]
    return img

def rose(w=1000, h=1000):
    x, y = grid(w, h)
    r = np.hypot(x - 0.5, y - 0.5) * 2; a = np.arctan2(y - 0.5, x - 0.5)
    petal = np.abs(np.cos(a * 3.5)) * 0.8 + 0.1
    inside = r < petal
    img = lerp([30, 70, 40], [90, 140, 70], y)
    img[inside] = lerp([250, 120, 170], [150, 20, 70], r / petal)[inside]
    img[r < 0.1] = [250, 220, 90]
    return img

def lake(w=1200, h=800):
    x, y = grid(w, h)
    top = np.minimum(y, 1 - y)
    img = lerp([250, 200, 150], [110, 150, 220], 1 - top / 0.5)
    ridge = 0.3 + 0.1 * np.sin(x[0] * 7) + (noise(w, 1, 6)[0] - 0.5) * 0.15
    mountain = (top > ridge[None, :] * 0.0) & (np.abs(y - 0.5) < 0.5 - ridge[None, :])
    img[mountain] = lerp([70, 80, 110], [40, 60, 70], np.abs(y - 0.5) * 4)[mountain]
    below = y > 0.5
    img[below] = img[below] * 0.8 + np.array([0, 10, 30])
    return img

def balloon(w=800, h=1200):
    x, y = grid(w, h)
    img = lerp([60, 140, 230], [200, 230, 250], y)
    dx = (x - 0.5) * w / h; dy = y - 0.35
    body = dx ** 2 / 0.04 + dy ** 2 / 0.06 < 1
    stripe = ((np.arctan2(dy, dx) * 4).astype(int) % 2 == 0)
    img[body & stripe] = [240, 80, 60]
    img[body & ~stripe] = [250, 210, 80]
    basket = (abs(x - 0.5) < 0.04) & (y > 0.62) & (y < 0.67)
    img[basket] = [120, 80, 40]
    return img

SCENES = [  # file name, title, generator
    ("sunset-over-the-sea", "Sunset over the sea", sunset),
    ("mountains-at-dawn", "Mountains at dawn", mountains),
    ("lighthouse", "Lighthouse", lighthouse),
    ("northern-lights", "Northern lights", aurora),
    ("desert-dunes", "Desert dunes (panorama)", dunes),
    ("mosaic-tiles", "Mosaic tiles", tiles),
    ("forest-by-moonlight", "Forest by moonlight", forest),
    ("green-hills", "Green hills", hills),
    ("city-at-night", "City at night (panorama)", skyline),
    ("rings", "Rings", rings),
    ("mountain-lake", "Mountain lake", lake),
    ("hot-air-balloon", "Hot-air balloon", balloon),
    ("flower", "Flower", rose),
]

MANIFEST_HEADER = """\
# The demo images' order and titles. Made by .generator/make-demo-images.py.
# A manifest lists [[item]] tables: path (relative to this file), optional title and caption.
"""

if __name__ == "__main__":
    manifest = [MANIFEST_HEADER]
    for i, (name, title, make) in enumerate(SCENES, 1):
        save("%02d-%s" % (i, name), make())
        print("%02d-%s.jpg  %s" % (i, name, title))
        manifest.append('[[item]]\npath = "%02d-%s.jpg"\ntitle = "%s"\n' % (i, name, title))
    with open(os.path.join(OUT, "manifest.toml"), "w") as f:
        f.write("\n".join(manifest))
