/* SPDX-License-Identifier: MIT */
/*
 * model/v3.h - the v3 seed series' own API beside the model's (uclamp-v3.md):
 * the units of its percent ABI. v3.c implements it, and the v3 ops table
 * (variant.h).
 */
#ifndef UCVAL_MODEL_V3_H
#define UCVAL_MODEL_V3_H

/* Percent of the p14 ABI to internal units: floor(1024 * pct / 100) (VP1). */
unsigned int model_v3_from_pct(unsigned int pct);
/* Internal units to percent, rounded up off multiples of 256 (VP2). */
unsigned int model_v3_to_pct(unsigned int value);

#endif /* UCVAL_MODEL_V3_H */
