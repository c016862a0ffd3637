// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - where its files are
 *
 * Every path is absolute and fixed: a tool that root runs must not be
 * pointed at another policy, lock or configuration by its environment.
 * Only the test build (make test, -DUC_TEST_ROOT) puts them all under
 * $USERCAPS_TEST_ROOT, for the host tests' fake securityfs.
 */
#include <stdlib.h>

#include "usercapsctl.h"

/* The prefix of every path: "" but in the test build. */
const char *uc_root(void)
{
#ifdef UC_TEST_ROOT
	const char *root = getenv("USERCAPS_TEST_ROOT");

	if (root)
		return root;
#endif
	return "";
}
