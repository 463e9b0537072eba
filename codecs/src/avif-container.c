#include "avif-container.h"

#include <string.h>

#include "host.h"

/* Writes big-endian fields into out, or only counts them when out is NULL. */
typedef struct {
  uint8_t *out;
  size_t pos;
} writer;

static void put(writer *w, uint32_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; i--, w->pos++)
    if (w->out) w->out[w->pos] = (uint8_t)(value >> (8 * i));
}

static void put_bytes(writer *w, const void *bytes, size_t size) {
  if (w->out) memcpy(w->out + w->pos, bytes, size);
  w->pos += size;
}

static size_t begin_box(writer *w, const char *type) {
  size_t at = w->pos;
  put(w, 0, 4);
  put_bytes(w, type, 4);
  return at;
}

static size_t begin_full_box(writer *w, const char *type, int version, uint32_t flags) {
  size_t at = begin_box(w, type);
  put(w, (uint32_t)version, 1);
  put(w, flags, 3);
  return at;
}

static void end_box(writer *w, size_t at) {
  if (!w->out) return;
  writer size = {w->out, at};
  put(&size, (uint32_t)(w->pos - at), 4);
}

static const char ALPHA_URN[] = "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha";

/* Item IDs: the colour image is item 1 (a grid over cells 2..n+1, or the one coded frame), then the
 * alpha image (a grid over the next n cells, or one frame). */
typedef struct {
  int grid, cells;
} items;

static int colour_cell_id(const items *it, int i) { return it->grid ? 2 + i : 1; }
static int alpha_id(const items *it) { return it->grid ? it->cells + 2 : 2; }
static int alpha_cell_id(const items *it, int i) { return it->grid ? it->cells + 3 + i : 2; }

/* The grid descriptor (ImageGrid, HEIF 6.6.2.3.2): 16-bit sizes unless the image needs 32. */
static size_t grid_descriptor_size(const avif_layout *l) { return l->width > 65535 || l->height > 65535 ? 12 : 8; }

static void put_grid_descriptor(writer *w, const avif_layout *l) {
  int wide = grid_descriptor_size(l) == 12;
  put(w, 0, 1);
  put(w, (uint32_t)wide, 1);
  put(w, (uint32_t)(l->rows - 1), 1);
  put(w, (uint32_t)(l->columns - 1), 1);
  put(w, (uint32_t)l->width, wide ? 4 : 2);
  put(w, (uint32_t)l->height, wide ? 4 : 2);
}

static void put_infe(writer *w, int id, const char *type, int hidden) {
  size_t box = begin_full_box(w, "infe", 2, hidden ? 1 : 0);
  put(w, (uint32_t)id, 2);
  put(w, 0, 2);
  put_bytes(w, type, 4);
  put(w, 0, 1); /* empty item name */
  end_box(w, box);
}

static void put_iloc_entry(writer *w, int id, size_t offset, uint32_t length) {
  put(w, (uint32_t)id, 2);
  put(w, 0, 2); /* data_reference_index: this file */
  put(w, 1, 2); /* one extent */
  put(w, (uint32_t)offset, 4);
  put(w, length, 4);
}

static void put_references(writer *w, const char *type, int from, int first_to, int count) {
  size_t box = begin_box(w, type);
  put(w, (uint32_t)from, 2);
  put(w, (uint32_t)count, 2);
  for (int i = 0; i < count; i++) put(w, (uint32_t)(first_to + i), 2);
  end_box(w, box);
}

static void put_ispe(writer *w, int width, int height) {
  size_t box = begin_full_box(w, "ispe", 0, 0);
  put(w, (uint32_t)width, 4);
  put(w, (uint32_t)height, 4);
  end_box(w, box);
}

static void put_pixi(writer *w, int channels) {
  size_t box = begin_full_box(w, "pixi", 0, 0);
  put(w, (uint32_t)channels, 1);
  for (int i = 0; i < channels; i++) put(w, 8, 1);
  end_box(w, box);
}

static void put_av1c(writer *w, const uint8_t config[4]) {
  size_t box = begin_box(w, "av1C");
  put_bytes(w, config, 4);
  end_box(w, box);
}

/* Indices of the properties in ipco (1-based; 0: absent). */
typedef struct {
  int cell_ispe, image_ispe, colour_av1c, colour_pixi, nclx, icc, alpha_av1c, alpha_pixi, aux;
} properties;

/* Writes the properties and returns their indices. Colour is BT.601 full-range YCbCr (matrix 6)
 * in sRGB (primaries 1, transfer 13), or, with an ICC profile, in the profile's space (primaries
 * and transfer 2, unspecified: the profile says). */
static properties put_ipco(writer *w, const avif_layout *l, const items *it) {
  properties p = {0};
  int n = 0;
  size_t ipco = begin_box(w, "ipco");
  put_ispe(w, l->cell_w, l->cell_h);
  p.cell_ispe = ++n;
  if (it->grid) {
    put_ispe(w, l->width, l->height);
    p.image_ispe = ++n;
  }
  put_av1c(w, l->colour_av1c);
  p.colour_av1c = ++n;
  put_pixi(w, l->mono ? 1 : 3);
  p.colour_pixi = ++n;
  size_t nclx = begin_box(w, "colr");
  put_bytes(w, "nclx", 4);
  put(w, l->icc ? 2 : 1, 2);
  put(w, l->icc ? 2 : 13, 2);
  put(w, 6, 2);
  put(w, 0x80, 1); /* full range */
  end_box(w, nclx);
  p.nclx = ++n;
  if (l->icc) {
    size_t prof = begin_box(w, "colr");
    put_bytes(w, "prof", 4);
    put_bytes(w, l->icc, l->icc_size);
    end_box(w, prof);
    p.icc = ++n;
  }
  if (l->alpha) {
    put_av1c(w, l->alpha_av1c);
    p.alpha_av1c = ++n;
    put_pixi(w, 1);
    p.alpha_pixi = ++n;
    size_t aux = begin_full_box(w, "auxC", 0, 0);
    put_bytes(w, ALPHA_URN, sizeof ALPHA_URN);
    end_box(w, aux);
    p.aux = ++n;
  }
  end_box(w, ipco);
  return p;
}

/* One ipma entry: the item and its properties (0s skipped); av1C is essential. */
static void put_association(writer *w, int id, const properties *p, int cell, int alpha) {
  int list[5], essential[5], count = 0;
#define ADD(index, is_essential) \
  if (index) list[count] = index, essential[count++] = is_essential
  ADD(cell ? p->cell_ispe : p->image_ispe, 0);
  if (cell) ADD(alpha ? p->alpha_av1c : p->colour_av1c, 1);
  ADD(alpha ? p->alpha_pixi : p->colour_pixi, 0);
  if (!alpha && id == 1) {
    ADD(p->nclx, 0);
    ADD(p->icc, 0);
  }
  if (alpha && !(cell && p->image_ispe)) ADD(p->aux, 0);
#undef ADD
  put(w, (uint32_t)id, 2);
  put(w, (uint32_t)count, 1);
  for (int i = 0; i < count; i++) put(w, (uint32_t)(essential[i] << 7 | list[i]), 1);
}

size_t avif_write_header(uint8_t *out, const avif_layout *l, size_t reserved) {
  writer w = {out, 0};
  items it = {.cells = l->columns * l->rows};
  it.grid = it.cells > 1;
  int n = it.cells;
  int item_count = (it.grid ? 1 + n : 1) * (l->alpha ? 2 : 1);

  size_t ftyp = begin_box(&w, "ftyp");
  put_bytes(&w, "avif", 4);
  put(&w, 0, 4);
  put_bytes(&w, "avifmif1miaf", 12);
  end_box(&w, ftyp);

  size_t meta = begin_full_box(&w, "meta", 0, 0);
  size_t hdlr = begin_full_box(&w, "hdlr", 0, 0);
  put(&w, 0, 4);
  put_bytes(&w, "pict", 4);
  put(&w, 0, 4);
  put(&w, 0, 4);
  put(&w, 0, 4);
  put(&w, 0, 1);
  end_box(&w, hdlr);

  size_t pitm = begin_full_box(&w, "pitm", 0, 0);
  put(&w, 1, 2);
  end_box(&w, pitm);

  /* The grid descriptors end the header; the cells follow it (offsets only matter when reserved). */
  size_t descriptors = it.grid ? grid_descriptor_size(l) * (l->alpha ? 2 : 1) : 0;
  size_t grid_at = reserved - descriptors;
  size_t iloc = begin_full_box(&w, "iloc", 0, 0);
  put(&w, 0x44, 1); /* 4-byte offsets and lengths */
  put(&w, 0x00, 1); /* no base offset */
  put(&w, (uint32_t)item_count, 2);
  if (it.grid) put_iloc_entry(&w, 1, grid_at, (uint32_t)grid_descriptor_size(l));
  for (int i = 0; i < n; i++) put_iloc_entry(&w, colour_cell_id(&it, i), reserved + l->colour_offsets[i], l->colour_sizes[i]);
  if (l->alpha) {
    if (it.grid) put_iloc_entry(&w, alpha_id(&it), grid_at + grid_descriptor_size(l), (uint32_t)grid_descriptor_size(l));
    for (int i = 0; i < n; i++) put_iloc_entry(&w, alpha_cell_id(&it, i), reserved + l->alpha_offsets[i], l->alpha_sizes[i]);
  }
  end_box(&w, iloc);

  size_t iinf = begin_full_box(&w, "iinf", 0, 0);
  put(&w, (uint32_t)item_count, 2);
  if (it.grid) put_infe(&w, 1, "grid", 0);
  for (int i = 0; i < n; i++) put_infe(&w, colour_cell_id(&it, i), "av01", it.grid);
  if (l->alpha) {
    if (it.grid) put_infe(&w, alpha_id(&it), "grid", 0);
    for (int i = 0; i < n; i++) put_infe(&w, alpha_cell_id(&it, i), "av01", it.grid);
  }
  end_box(&w, iinf);

  if (it.grid || l->alpha) {
    size_t iref = begin_full_box(&w, "iref", 0, 0);
    if (it.grid) put_references(&w, "dimg", 1, colour_cell_id(&it, 0), n);
    if (l->alpha) {
      if (it.grid) put_references(&w, "dimg", alpha_id(&it), alpha_cell_id(&it, 0), n);
      put_references(&w, "auxl", alpha_id(&it), 1, 1);
    }
    end_box(&w, iref);
  }

  size_t iprp = begin_box(&w, "iprp");
  properties p = put_ipco(&w, l, &it);
  size_t ipma = begin_full_box(&w, "ipma", 0, 0);
  put(&w, (uint32_t)item_count, 4);
  if (it.grid) put_association(&w, 1, &p, 0, 0);
  for (int i = 0; i < n; i++) put_association(&w, colour_cell_id(&it, i), &p, 1, 0);
  if (l->alpha) {
    if (it.grid) put_association(&w, alpha_id(&it), &p, 0, 1);
    for (int i = 0; i < n; i++) put_association(&w, alpha_cell_id(&it, i), &p, 1, 1);
  }
  end_box(&w, ipma);
  end_box(&w, iprp);
  end_box(&w, meta);

  if (reserved) {
    if (reserved < w.pos + 8 + descriptors) host_fail(FAIL_INTERNAL, "avif: the header outgrew its room");
    size_t rest = reserved - w.pos - 8 - descriptors;
    if (rest > 0) {
      if (rest < 8) host_fail(FAIL_INTERNAL, "avif: no room for the free box");
      size_t free_box = begin_box(&w, "free");
      w.pos += rest - 8;
      end_box(&w, free_box);
    }
  }
  size_t mdat = begin_box(&w, "mdat");
  if (it.grid) {
    put_grid_descriptor(&w, l);
    if (l->alpha) put_grid_descriptor(&w, l);
  }
  w.pos += l->data_size;
  end_box(&w, mdat);
  return w.pos - l->data_size;
}
