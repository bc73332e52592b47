// SPDX-License-Identifier: MIT
/*
 * lib/sha256.c - SHA-256 (FIPS 180-4) of a trace file: the identity of a
 * trace in the database (events.md §5). None of the project's libraries
 * exports a hash. The portable compression costs about 60 instructions a
 * byte, a fifth of what analyze spends on a synthetic trace (callgrind), so
 * x86-64 CPUs with the SHA extensions use them (compress_ni()); the result
 * is the same (tests/test_an_sha256.c compares both).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI	1
#endif

#include "lib/sha256.h"

/* Bytes read per pread(2) call while hashing a file. */
#define READ_CHUNK	(1 << 16)

/* First 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t round_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static void compress_one(uint32_t h[8], const uint8_t *blk)
{
	uint32_t w[64], a, b, c, d, e, f, g, k;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)blk[4 * i] << 24 | (uint32_t)blk[4 * i + 1] << 16 |
		       (uint32_t)blk[4 * i + 2] << 8 | blk[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
			      ((e & f) ^ (~e & g)) + round_k[i] + w[i];
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) +
			      ((a & b) ^ (a & c) ^ (b & c));

		k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d;
	h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

#ifdef HAVE_SHA_NI
/* CPUID: SHA (leaf 7, EBX bit 29), SSSE3 and SSE4.1 (leaf 1, ECX bits 9, 19). */
static bool has_sha_ni(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19)))
		return false;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return false;
	return b & (1u << 29);
}

/*
 * @n blocks with the SHA extensions. They keep the state as two vectors,
 * ABEF and CDGH; sha256rnds2 does two rounds, sha256msg1/msg2 the message
 * schedule four words at a time.
 */
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_ni(uint32_t h[8], const uint8_t *p, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
	__m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
	__m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);

	for (; n; n--, p += 64) {
		__m128i save0 = abef, save1 = cdgh, w[16];

		for (int g = 0; g < 16; g++) {
			__m128i m;

			if (g < 4) {
				w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)),
							bswap);
			} else {
				__m128i t = _mm_sha256msg1_epu32(w[g - 4], w[g - 3]);

				t = _mm_add_epi32(t, _mm_alignr_epi8(w[g - 1], w[g - 2], 4));
				w[g] = _mm_sha256msg2_epu32(t, w[g - 1]);
			}
			m = _mm_add_epi32(w[g], _mm_loadu_si128((const __m128i *)&round_k[4 * g]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0e));
		}
		abef = _mm_add_epi32(abef, save0);
		cdgh = _mm_add_epi32(cdgh, save1);
	}
	{
		__m128i feba = _mm_shuffle_epi32(abef, 0x1b);
		__m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);

		_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xf0));
		_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
	}
}
#endif

/* @n whole blocks at @p. */
static void compress(struct an_sha256 *s, const uint8_t *p, size_t n)
{
#ifdef HAVE_SHA_NI
	if (s->is_ni) {
		compress_ni(s->h, p, n);
		return;
	}
#endif
	for (; n; n--, p += 64)
		compress_one(s->h, p);
}

/**
 * an_sha256_init() - start a digest
 * @s: the state
 */
void an_sha256_init(struct an_sha256 *s)
{
	/* First 32 bits of the fractional parts of the square roots of the first 8 primes. */
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
	s->nr = 0;
#ifdef HAVE_SHA_NI
	s->is_ni = has_sha_ni();
#else
	s->is_ni = false;
#endif
}

/**
 * an_sha256_update() - hash @len more bytes
 * @s: the state
 * @data: the bytes
 * @len: how many
 */
void an_sha256_update(struct an_sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->len += len;
	while (len) {
		size_t take = sizeof(s->buf) - s->nr;

		if (!s->nr && len >= sizeof(s->buf)) {	/* whole blocks in place */
			take = len / sizeof(s->buf) * sizeof(s->buf);
			compress(s, p, take / sizeof(s->buf));
			p += take;
			len -= take;
			continue;
		}
		if (take > len)
			take = len;
		memcpy(s->buf + s->nr, p, take);
		s->nr += take;
		p += take;
		len -= take;
		if (s->nr == sizeof(s->buf)) {
			compress(s, s->buf, 1);
			s->nr = 0;
		}
	}
}

/**
 * an_sha256_final() - finish the digest as lower-case hex
 * @s: the state (unusable afterwards)
 * @hex: AN_SHA256_HEX_LEN + 1 bytes, NUL-terminated on return
 */
void an_sha256_final(struct an_sha256 *s, char hex[AN_SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	uint64_t bits = s->len * 8;
	uint8_t pad = 0x80, len_be[8];

	an_sha256_update(s, &pad, 1);
	pad = 0;
	while (s->nr != sizeof(s->buf) - sizeof(len_be))
		an_sha256_update(s, &pad, 1);
	for (int i = 0; i < 8; i++)
		len_be[i] = (uint8_t)(bits >> (56 - 8 * i));
	an_sha256_update(s, len_be, sizeof(len_be));
	for (int i = 0; i < 32; i++) {
		uint8_t byte = (uint8_t)(s->h[i / 4] >> (24 - 8 * (i % 4)));

		hex[2 * i] = digits[byte >> 4];
		hex[2 * i + 1] = digits[byte & 0xf];
	}
	hex[AN_SHA256_HEX_LEN] = '\0';
}

/* Kernel-doc of the exported functions: sha256.h. */
int an_sha256_range(struct an_sha256 *s, int fd, uint64_t from, uint64_t to,
		    struct an_diag *d)
{
	static __thread uint8_t chunk[READ_CHUNK];

	while (from < to) {
		size_t want = to - from < sizeof(chunk) ? (size_t)(to - from) : sizeof(chunk);
		ssize_t n = pread(fd, chunk, want, (off_t)from);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return an_diag_fail(d, -errno, "%s", strerror(errno));
		if (n == 0)
			return an_diag_fail(d, -EIO, "it ended at byte %llu while it was read: "
					    "it changed", (unsigned long long)from);
		an_sha256_update(s, chunk, (size_t)n);
		from += (uint64_t)n;
	}
	return 0;
}

int an_sha256_file(const char *path, char hex[AN_SHA256_HEX_LEN + 1], struct an_diag *d)
{
	struct an_sha256 s;
	struct stat st;
	int fd, err;

	an_diag_set_file(d, "read", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return an_diag_fail(d, -errno, "%s", strerror(errno));
	if (fstat(fd, &st))
		err = an_diag_fail(d, -errno, "%s", strerror(errno));
	else if (S_ISDIR(st.st_mode))
		err = an_diag_fail(d, -EISDIR, "%s", strerror(EISDIR));
	else if (!S_ISREG(st.st_mode))
		err = an_diag_fail(d, -EINVAL, "not a regular file: no end to stop at");
	else
		err = 0;
	an_sha256_init(&s);
	if (!err)
		err = an_sha256_range(&s, fd, 0, (uint64_t)st.st_size, d);
	close(fd);
	if (!err)
		an_sha256_final(&s, hex);
	return err;
}
