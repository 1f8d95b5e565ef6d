/* A tiny ELF writer for tests: builds a shared object image in memory with chosen class, byte
 * order, SONAME, NEEDED, RUNPATH and one version definition / requirement, so the reader is tested
 * on 32-bit and big-endian files this x86-64 machine cannot link. Layout (all in one PT_LOAD at
 * vaddr 0x10000 + offset): ehdr, phdrs at 0x40, dynstr at 0x200, verdef 0x300, verneed 0x380,
 * dynamic 0x400, dynsym 0x600. */
#ifndef ELF_SYNTH_H
#define ELF_SYNTH_H

#include <stdint.h>
#include <string.h>

#define SYNTH_SIZE 0x800
#define SYNTH_VADDR 0x10000u

struct synth {
	uint8_t b[SYNTH_SIZE];
	int cls, be;
};

static void sw16(struct synth *s, size_t o, uint16_t v)
{
	if (s->be)
		s->b[o] = (uint8_t)(v >> 8), s->b[o + 1] = (uint8_t)v;
	else
		s->b[o] = (uint8_t)v, s->b[o + 1] = (uint8_t)(v >> 8);
}

static void sw32(struct synth *s, size_t o, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		s->b[o + (size_t)(s->be ? 3 - i : i)] = (uint8_t)(v >> (8 * i));
}

static void sw64(struct synth *s, size_t o, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		s->b[o + (size_t)(s->be ? 7 - i : i)] = (uint8_t)(v >> (8 * i));
}

static void sword(struct synth *s, size_t o, uint64_t v)
{
	if (s->cls == 64)
		sw64(s, o, v);
	else
		sw32(s, o, (uint32_t)v);
}

/* string offsets inside dynstr */
#define SY_SONAME 1    /* "libsynth.so.1" */
#define SY_NEEDED1 15  /* "libbar.so.2" */
#define SY_NEEDED2 27  /* "libbaz.so.3" */
#define SY_RUNPATH 39  /* "$ORIGIN/../lib" */
#define SY_VERS 54     /* "SYNTH_1.0" */
#define SY_BARV 64     /* "BAR_2.0" */
#define SY_SYM 72      /* "synth_fn" */
static const char synth_strs[] = "\0libsynth.so.1\0libbar.so.2\0libbaz.so.3\0$ORIGIN/../lib\0SYNTH_1.0\0BAR_2.0\0synth_fn";

static void synth_build(struct synth *s, int cls, int be, uint16_t machine)
{
	memset(s, 0, sizeof *s);
	s->cls = cls, s->be = be;
	memcpy(s->b, "\x7f" "ELF", 4);
	s->b[4] = cls == 64 ? 2 : 1;
	s->b[5] = be ? 2 : 1;
	s->b[6] = 1;
	sw16(s, 16, 3); /* ET_DYN */
	sw16(s, 18, machine);
	sw32(s, 20, 1);
	unsigned phent = cls == 64 ? 56 : 32;
	if (cls == 64) {
		sw64(s, 32, 0x40); /* phoff */
		sw16(s, 52, 64);
		sw16(s, 54, (uint16_t)phent);
		sw16(s, 56, 2);
		sw16(s, 58, 64);
	} else {
		sw32(s, 28, 0x40);
		sw16(s, 40, 52);
		sw16(s, 42, (uint16_t)phent);
		sw16(s, 44, 2);
		sw16(s, 46, 40);
	}
	/* PT_LOAD over the whole image, PT_DYNAMIC at 0x400 */
	for (int i = 0; i < 2; i++) {
		size_t p = 0x40 + (size_t)i * phent;
		uint32_t type = i == 0 ? 1 : 2;
		uint64_t off = i == 0 ? 0 : 0x400, size = i == 0 ? SYNTH_SIZE : 0x200;
		if (cls == 64) {
			sw32(s, p, type);
			sw64(s, p + 8, off);
			sw64(s, p + 16, SYNTH_VADDR + off);
			sw64(s, p + 32, size);
			sw64(s, p + 40, size);
		} else {
			sw32(s, p, type);
			sw32(s, p + 4, (uint32_t)off);
			sw32(s, p + 8, (uint32_t)(SYNTH_VADDR + off));
			sw32(s, p + 16, (uint32_t)size);
			sw32(s, p + 20, (uint32_t)size);
		}
	}
	memcpy(s->b + 0x200, synth_strs, sizeof synth_strs);
	/* verdef: BASE (index 1, the soname) then SYNTH_1.0 (index 2) */
	sw16(s, 0x300, 1), sw16(s, 0x302, 1), sw16(s, 0x304, 1), sw16(s, 0x306, 1);
	sw32(s, 0x30c, 20), sw32(s, 0x310, 28);
	sw32(s, 0x314, SY_SONAME);
	sw16(s, 0x31c, 1), sw16(s, 0x31e, 0), sw16(s, 0x320, 2), sw16(s, 0x322, 1);
	sw32(s, 0x328, 20), sw32(s, 0x32c, 0);
	sw32(s, 0x330, SY_VERS);
	/* verneed: libbar.so.2 needs BAR_2.0 (weak) */
	sw16(s, 0x380, 1), sw16(s, 0x382, 1), sw32(s, 0x384, SY_NEEDED1), sw32(s, 0x388, 16),
		sw32(s, 0x38c, 0);
	sw16(s, 0x394, 2), sw16(s, 0x396, 3), sw32(s, 0x398, SY_BARV), sw32(s, 0x39c, 0);
	/* dynamic */
	uint64_t dyn[][2] = {
		{ 1, SY_NEEDED1 }, { 1, SY_NEEDED2 }, { 14, SY_SONAME }, { 29, SY_RUNPATH },
		{ 5, SYNTH_VADDR + 0x200 }, { 10, sizeof synth_strs }, { 0x6ffffffb, 0x800 },
		{ 0x6ffffffc, SYNTH_VADDR + 0x300 }, { 0x6ffffffd, 2 },
		{ 0x6ffffffe, SYNTH_VADDR + 0x380 }, { 0x6fffffff, 1 },
		{ 6, SYNTH_VADDR + 0x600 }, { 4, SYNTH_VADDR + 0x700 }, { 0, 0 },
	};
	unsigned w = cls == 64 ? 8 : 4;
	for (size_t i = 0; i < sizeof dyn / sizeof dyn[0]; i++) {
		sword(s, 0x400 + i * 2 * w, dyn[i][0]);
		sword(s, 0x400 + i * 2 * w + w, dyn[i][1]);
	}
	/* dynsym: null symbol, then synth_fn defined (GLOBAL FUNC, shndx 7) */
	if (cls == 64) {
		sw32(s, 0x600 + 24, SY_SYM);
		s->b[0x600 + 24 + 4] = 0x12;
		sw16(s, 0x600 + 24 + 6, 7);
	} else {
		sw32(s, 0x600 + 16, SY_SYM);
		s->b[0x600 + 16 + 12] = 0x12;
		sw16(s, 0x600 + 16 + 14, 7);
	}
	/* DT_HASH: nbucket 1, nchain 2 */
	sw32(s, 0x700, 1), sw32(s, 0x704, 2);
}

#endif
