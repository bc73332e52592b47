// SPDX-License-Identifier: MIT
/*
 * model/list.c - the intrusive doubly linked list (see list.h).
 */
#include "list.h"

void model_list_init(struct model_node *head)
{
	head->prev = head;
	head->next = head;
}

void model_list_add(struct model_node *head, struct model_node *n)
{
	n->next = head->next;
	n->prev = head;
	head->next->prev = n;
	head->next = n;
}

void model_list_del(struct model_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	model_list_init(n);
}

bool model_list_empty(const struct model_node *head)
{
	return head->next == head;
}
