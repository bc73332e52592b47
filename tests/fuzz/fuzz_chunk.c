// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_chunk.c - libFuzzer target for the reader of a chunk of
 * intervals (analyze/store/chunk.c), the text a report reads from the database.
 * The first byte picks how many numbers an interval has (0 to 8: 8 is
 * refused); the rest is the text, in a buffer of its exact size so that a
 * read past it is caught. Each interval read is written again and must
 * read back the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/store/chunk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long long num[AN_CHUNK_MAX_NUMS], again[AN_CHUNK_MAX_NUMS];
	char text[AN_CHUNK_REC_TEXT + 2];
	struct an_chunk_reader c, r;
	unsigned int nr, has, has_again;
	char *copy;
	size_t len;
	int ret;

	if (!size)
		return 0;
	nr = data[0] % (AN_CHUNK_MAX_NUMS + 2);
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	an_chunk_begin(&c, copy, size - 1);
	while ((ret = an_chunk_next(&c, num, &has, nr)) == 1) {
		text[0] = '[';
		len = 1 + an_chunk_put(text + 1, true, num, has, nr);
		text[len++] = ']';
		an_chunk_begin(&r, text, len);
		if (an_chunk_next(&r, again, &has_again, nr) != 1 || has_again != has ||
		    an_chunk_next(&r, again + 0, &has_again, nr) != 0)
			__builtin_trap();
		an_chunk_begin(&r, text, len);
		an_chunk_next(&r, again, &has_again, nr);
		for (unsigned int i = 0; i < nr; i++)
			if ((has & 1u << i) && again[i] != num[i])
				__builtin_trap();
	}
	if (ret != 0 && ret != -22 && ret != -34)	/* -EINVAL, -ERANGE */
		__builtin_trap();
	if (an_chunk_offset(&c) > size - 1)
		__builtin_trap();
	free(copy);
	return 0;
}
