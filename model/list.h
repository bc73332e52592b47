/* SPDX-License-Identifier: MIT */
/*
 * model/list.h - the intrusive doubly linked list of the model: a CPU's
 * queued tasks hang on it through their rq_node. The caller owns every node;
 * the list only links them.
 */
#ifndef UCVAL_MODEL_LIST_H
#define UCVAL_MODEL_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* Intrusive doubly linked list node; a head is a node linked to itself. */
struct model_node {
	struct model_node *prev, *next;
};

/* @head becomes an empty list (a node linked to itself). */
void model_list_init(struct model_node *head);
/* Link @n right after @head. */
void model_list_add(struct model_node *head, struct model_node *n);
/* Unlink @n; it is left as an empty list of its own. */
void model_list_del(struct model_node *n);
bool model_list_empty(const struct model_node *head);

#define model_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#define model_list_for_each(pos, head) \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#endif /* UCVAL_MODEL_LIST_H */
