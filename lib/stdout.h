/* SPDX-License-Identifier: MIT */
/*
 * lib/stdout.h - standard output checked like any other output: a table,
 * document or help text that did not reach it is an error of the command
 * (exit 2: whatever the result was, it is lost), said once per process as
 * "ucval CMD: cannot write standard output: REASON", never a silent
 * truncation. Call from one thread at a time, as stdio's output order
 * needs anyway.
 */
#ifndef UCVAL_LIB_STDOUT_H
#define UCVAL_LIB_STDOUT_H

/**
 * an_stdout_flush() - flush standard output now and check it
 * @cmd: the command, for the message ("analyze"); NULL for ucval itself
 *
 * Return: 0, or a negative errno (-EIO when the reason is unknown) after
 * printing the message on stderr, unless this process printed it already.
 */
int an_stdout_flush(const char *cmd);

/**
 * an_stdout_fail() - say that standard output could not be written
 * @cmd: the command, for the message; NULL for ucval itself
 * @err: the negative errno of the failure, 0 when unknown
 *
 * For a writer that found the failure itself (lib/outfile.h committing
 * "-"). Printed once per process; an_stdout_close() fails from then on.
 */
void an_stdout_fail(const char *cmd, int err);

/**
 * an_stdout_close() - flush and close standard output once a command is done
 * @cmd: the command, for the message; NULL for ucval itself
 *
 * As coreutils' close_stdout(): a write error seen before (the stream's
 * error flag or an_stdout_fail()), or a failure of the last flush or of the
 * close, is a failure; a standard output closed from the start that was
 * never written to is not. Nothing may write to standard output afterwards.
 *
 * Return: 0, or a negative errno (-EIO when the reason is unknown) after
 * printing the message on stderr, unless this process printed it already.
 */
int an_stdout_close(const char *cmd);

#endif /* UCVAL_LIB_STDOUT_H */
