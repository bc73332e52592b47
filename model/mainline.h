/* SPDX-License-Identifier: MIT */
/*
 * model/mainline.h - mainline uclamp's own API beside the model's
 * (uclamp-mainline.md): the bucket arithmetic. mainline.c implements it, and
 * the mainline ops table (variant.h).
 */
#ifndef UCVAL_MODEL_MAINLINE_H
#define UCVAL_MODEL_MAINLINE_H

/* UCLAMP_BUCKET_DELTA = DIV_ROUND_CLOSEST(1024, buckets) (MB1). */
unsigned int model_mainline_bucket_delta(unsigned int buckets);
/* uclamp_bucket_id() as release @kver stores it: capped from 5.13 (MB1). */
unsigned int model_mainline_bucket_id(unsigned int buckets, unsigned int kver,
				      unsigned int value);

#endif /* UCVAL_MODEL_MAINLINE_H */
