// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - KUnit tests of the decision
 */

#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/user_namespace.h>

#include "usercaps.h"

#define ROOT		0
#define OWNER		1000
#define USER		1001
#define GROUP		2000
#define OTHER_GROUP	3000

static struct usercaps_entry entry(unsigned int owner, unsigned int group,
				   umode_t mode)
{
	return (struct usercaps_entry) {
		.mode = mode,
		.owner = KUIDT_INIT(owner),
		.group = KGIDT_INIT(group),
	};
}

/* Whether @e grants to fsuid @uid, fsgid @gid and no supplementary group. */
static bool grants(struct usercaps_entry e, unsigned int uid, unsigned int gid)
{
	return usercaps_entry_grants(&e, KUIDT_INIT(uid), KGIDT_INIT(gid),
				     NULL);
}

static void usercaps_test_default_grants_nothing(struct kunit *test)
{
	struct usercaps_entry e = entry(ROOT, ROOT, USERCAPS_DEFAULT_MODE);

	KUNIT_EXPECT_FALSE(test, grants(e, ROOT, ROOT));
	KUNIT_EXPECT_FALSE(test, grants(e, USER, ROOT));
	KUNIT_EXPECT_FALSE(test, grants(e, USER, GROUP));
	KUNIT_EXPECT_TRUE(test, usercaps_entry_is_default(&e));
	KUNIT_EXPECT_EQ(test, usercaps_grantees(&e), 0);
}

static void usercaps_test_owner(struct kunit *test)
{
	struct usercaps_entry e = entry(OWNER, ROOT, 0100);

	KUNIT_EXPECT_TRUE(test, grants(e, OWNER, OWNER));
	KUNIT_EXPECT_FALSE(test, grants(e, USER, USER));
	KUNIT_EXPECT_FALSE(test, grants(e, ROOT, ROOT));
	KUNIT_EXPECT_FALSE(test, usercaps_entry_is_default(&e));
	KUNIT_EXPECT_EQ(test, usercaps_grantees(&e), USERCAPS_GRANTS_OWNER);
}

/* The owner's bits decide for the owner, even where others' would grant. */
static void usercaps_test_owner_bits_win(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, grants(entry(OWNER, GROUP, 0011), OWNER, GROUP));
	KUNIT_EXPECT_TRUE(test, grants(entry(OWNER, GROUP, 0011), USER, GROUP));
	KUNIT_EXPECT_TRUE(test, grants(entry(OWNER, GROUP, 0011), USER, USER));
}

/* A root process that dropped its capabilities does not regain them. */
static void usercaps_test_root_owner_never_grants(struct kunit *test)
{
	struct usercaps_entry e = entry(ROOT, GROUP, 0711);

	KUNIT_EXPECT_FALSE(test, grants(e, ROOT, ROOT));
	KUNIT_EXPECT_FALSE(test, grants(e, ROOT, GROUP));
	KUNIT_EXPECT_TRUE(test, grants(e, USER, GROUP));
	KUNIT_EXPECT_EQ(test, usercaps_grantees(&e),
			USERCAPS_GRANTS_GROUP | USERCAPS_GRANTS_OTHER);
}

static void usercaps_test_group(struct kunit *test)
{
	struct usercaps_entry e = entry(ROOT, GROUP, 0110);

	KUNIT_EXPECT_TRUE(test, grants(e, USER, GROUP));
	KUNIT_EXPECT_FALSE(test, grants(e, USER, USER));
	KUNIT_EXPECT_EQ(test, usercaps_grantees(&e), USERCAPS_GRANTS_GROUP);
}

/* The group's bits decide for the group, even where others' would grant. */
static void usercaps_test_group_bits_win(struct kunit *test)
{
	struct usercaps_entry e = entry(ROOT, GROUP, 0101);

	KUNIT_EXPECT_FALSE(test, grants(e, USER, GROUP));
	KUNIT_EXPECT_TRUE(test, grants(e, USER, USER));
	KUNIT_EXPECT_EQ(test, usercaps_grantees(&e), USERCAPS_GRANTS_OTHER);
}

static void usercaps_test_supplementary_groups(struct kunit *test)
{
	struct usercaps_entry e = entry(ROOT, GROUP, 0110);
	struct usercaps_entry other = entry(ROOT, GROUP, 0101);
	struct group_info *groups = groups_alloc(2);

	KUNIT_ASSERT_NOT_NULL(test, groups);
	groups->gid[0] = KGIDT_INIT(OTHER_GROUP);
	groups->gid[1] = KGIDT_INIT(GROUP);
	groups_sort(groups);

	KUNIT_EXPECT_TRUE(test, usercaps_entry_grants(&e, KUIDT_INIT(USER),
						      KGIDT_INIT(USER), groups));
	KUNIT_EXPECT_FALSE(test, usercaps_entry_grants(&other, KUIDT_INIT(USER),
						       KGIDT_INIT(USER), groups));
	/* The owner's bits still decide for an owner in the group. */
	KUNIT_EXPECT_FALSE(test, usercaps_entry_grants(&e, KUIDT_INIT(ROOT),
						       KGIDT_INIT(ROOT), groups));

	groups->gid[0] = KGIDT_INIT(OTHER_GROUP);
	groups->gid[1] = KGIDT_INIT(OTHER_GROUP + 1);
	groups_sort(groups);
	KUNIT_EXPECT_FALSE(test, usercaps_entry_grants(&e, KUIDT_INIT(USER),
						       KGIDT_INIT(USER), groups));
	put_group_info(groups);
}

static void usercaps_test_other(struct kunit *test)
{
	struct usercaps_entry e = entry(OWNER, GROUP, 0001);

	KUNIT_EXPECT_TRUE(test, grants(e, USER, USER));
	KUNIT_EXPECT_TRUE(test, grants(e, ROOT, ROOT));
	KUNIT_EXPECT_FALSE(test, grants(e, OWNER, USER));
	KUNIT_EXPECT_FALSE(test, grants(e, USER, GROUP));
}

/* Only the execute bits matter, and setuid & co. do not count as one. */
static void usercaps_test_only_execute_bits(struct kunit *test)
{
	struct usercaps_entry e = entry(OWNER, GROUP, 07666);

	KUNIT_EXPECT_FALSE(test, grants(e, OWNER, GROUP));
	KUNIT_EXPECT_FALSE(test, grants(e, USER, GROUP));
	KUNIT_EXPECT_FALSE(test, grants(e, USER, USER));
	KUNIT_EXPECT_EQ(test, usercaps_grantees(&e), 0);
}

static void usercaps_test_default_state(struct kunit *test)
{
	struct usercaps_entry group = entry(ROOT, GROUP, 0100);
	struct usercaps_entry mode = entry(ROOT, ROOT, 0700);
	struct usercaps_entry nothing = entry(ROOT, ROOT, 0000);

	KUNIT_EXPECT_FALSE(test, usercaps_entry_is_default(&group));
	KUNIT_EXPECT_FALSE(test, usercaps_entry_is_default(&mode));
	/* Granting nothing is not the default state: "grants" shows it. */
	KUNIT_EXPECT_FALSE(test, usercaps_entry_is_default(&nothing));
}

static void usercaps_test_bounding_set(struct kunit *test)
{
	struct cred cred = {
		.user_ns = &init_user_ns,
		.cap_bset = CAP_FULL_SET,
	};

	KUNIT_EXPECT_TRUE(test, usercaps_cred_eligible(&cred, CAP_KILL));
	cap_lower(cred.cap_bset, CAP_KILL);
	KUNIT_EXPECT_FALSE(test, usercaps_cred_eligible(&cred, CAP_KILL));
	KUNIT_EXPECT_TRUE(test, usercaps_cred_eligible(&cred, CAP_SYS_NICE));
}

static void usercaps_test_user_namespace(struct kunit *test)
{
	struct user_namespace *child = kunit_kzalloc(test, sizeof(*child),
						      GFP_KERNEL);
	struct cred cred = {
		.user_ns = child,
		.cap_bset = CAP_FULL_SET,
	};

	KUNIT_ASSERT_NOT_NULL(test, child);
	child->parent = &init_user_ns;
	child->level = 1;
	KUNIT_EXPECT_FALSE(test, usercaps_cred_eligible(&cred, CAP_KILL));
}

/* The decisions percred mode caches are those of the checks one by one. */
static void usercaps_test_cred_granted(struct kunit *test)
{
	struct usercaps_entry *caps = kunit_kcalloc(test, CAP_LAST_CAP + 1,
						     sizeof(*caps), GFP_KERNEL);
	struct cred cred = {
		.user_ns = &init_user_ns,
		.cap_bset = CAP_FULL_SET,
		.fsuid = KUIDT_INIT(OWNER),
		.fsgid = KGIDT_INIT(GROUP),
	};
	int cap;

	KUNIT_ASSERT_NOT_NULL(test, caps);
	for (cap = 0; cap <= CAP_LAST_CAP; cap++)
		caps[cap] = entry(ROOT, ROOT, USERCAPS_DEFAULT_MODE);
	KUNIT_EXPECT_EQ(test, usercaps_cred_granted(caps, &cred), 0ULL);

	caps[CAP_KILL] = entry(ROOT, GROUP, 0110);
	caps[CAP_SYS_NICE] = entry(OWNER, ROOT, 0100);
	caps[CAP_IPC_LOCK] = entry(ROOT, ROOT, 0001);
	caps[CAP_CHOWN] = entry(ROOT, OTHER_GROUP, 0010);
	caps[CAP_SYS_ADMIN] = entry(OWNER, GROUP, 0011);
	KUNIT_EXPECT_EQ(test, usercaps_cred_granted(caps, &cred),
			BIT_ULL(CAP_KILL) | BIT_ULL(CAP_SYS_NICE) |
			BIT_ULL(CAP_IPC_LOCK));

	cap_lower(cred.cap_bset, CAP_IPC_LOCK);
	KUNIT_EXPECT_EQ(test, usercaps_cred_granted(caps, &cred),
			BIT_ULL(CAP_KILL) | BIT_ULL(CAP_SYS_NICE));
	for (cap = 0; cap <= CAP_LAST_CAP; cap++)
		KUNIT_EXPECT_EQ(test,
				!!(usercaps_cred_granted(caps, &cred) & BIT_ULL(cap)),
				usercaps_cred_eligible(&cred, cap) &&
				usercaps_entry_grants(&caps[cap], cred.fsuid,
						      cred.fsgid, NULL));
}

static struct kunit_case usercaps_test_cases[] = {
	KUNIT_CASE(usercaps_test_default_grants_nothing),
	KUNIT_CASE(usercaps_test_owner),
	KUNIT_CASE(usercaps_test_owner_bits_win),
	KUNIT_CASE(usercaps_test_root_owner_never_grants),
	KUNIT_CASE(usercaps_test_group),
	KUNIT_CASE(usercaps_test_group_bits_win),
	KUNIT_CASE(usercaps_test_supplementary_groups),
	KUNIT_CASE(usercaps_test_other),
	KUNIT_CASE(usercaps_test_only_execute_bits),
	KUNIT_CASE(usercaps_test_default_state),
	KUNIT_CASE(usercaps_test_bounding_set),
	KUNIT_CASE(usercaps_test_user_namespace),
	KUNIT_CASE(usercaps_test_cred_granted),
	{}
};

static struct kunit_suite usercaps_test_suite = {
	.name = "usercaps",
	.test_cases = usercaps_test_cases,
};

kunit_test_suite(usercaps_test_suite);
