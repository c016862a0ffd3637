// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - KUnit tests of the decision
 *
 * The first suite tests the decision as pure functions, and which
 * credentials are a task's own. The second runs against the live policy,
 * at boot only, and puts back the exact owner, group and mode it found:
 * the fill, publication and generations of percred mode's cache, and the
 * rule that a kernel thread (KUnit runs each case in one) is granted
 * nothing and may not change the policy.
 */

#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/usercaps.h>
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

/*
 * Cached mode decides by the class that applies against the classes the
 * entry grants, computed when it is published: the same decision as the
 * mode bits', for every mode, owner and credential.
 */
static void usercaps_test_class_against_grantees(struct kunit *test)
{
	static const unsigned int ids[][2] = {
		{ ROOT, ROOT }, { ROOT, GROUP }, { OWNER, ROOT },
		{ OWNER, GROUP }, { USER, GROUP }, { USER, USER },
	};
	static const unsigned int owners[] = { ROOT, OWNER };
	struct usercaps_entry e;
	unsigned int mode, o, i, class;
	kuid_t uid;
	kgid_t gid;

	for (mode = 0; mode <= 0777; mode++) {
		for (o = 0; o < ARRAY_SIZE(owners); o++) {
			e = entry(owners[o], GROUP, mode);
			for (i = 0; i < ARRAY_SIZE(ids); i++) {
				uid = KUIDT_INIT(ids[i][0]);
				gid = KGIDT_INIT(ids[i][1]);
				class = usercaps_entry_class(&e, uid, gid, NULL);
				KUNIT_EXPECT_EQ_MSG(test,
						    !!(class & usercaps_grantees(&e)),
						    grants(e, ids[i][0], ids[i][1]),
						    "mode %04o owner %u ids %u:%u",
						    mode, owners[o], ids[i][0], ids[i][1]);
			}
		}
	}
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

	/* Another user, in no group of the policy: only "other" grants. */
	cred.fsuid = KUIDT_INIT(USER);
	cred.fsgid = KGIDT_INIT(USER);
	cap_raise(cred.cap_bset, CAP_IPC_LOCK);
	KUNIT_EXPECT_EQ(test, usercaps_cred_granted(caps, &cred),
			BIT_ULL(CAP_IPC_LOCK) | BIT_ULL(CAP_SYS_ADMIN));

	/* Root: the root-owned files' owner bits are not root's to use. */
	cred.fsuid = KUIDT_INIT(ROOT);
	cred.fsgid = KGIDT_INIT(ROOT);
	KUNIT_EXPECT_EQ(test, usercaps_cred_granted(caps, &cred),
			BIT_ULL(CAP_SYS_ADMIN));
}

/* Percred's decisions are refused whole in a child user namespace. */
static void usercaps_test_cred_granted_user_namespace(struct kunit *test)
{
	struct usercaps_entry *caps = kunit_kcalloc(test, CAP_LAST_CAP + 1,
						     sizeof(*caps), GFP_KERNEL);
	struct user_namespace *child = kunit_kzalloc(test, sizeof(*child),
						      GFP_KERNEL);
	struct cred cred = {
		.user_ns = child,
		.cap_bset = CAP_FULL_SET,
		.fsuid = KUIDT_INIT(USER),
		.fsgid = KGIDT_INIT(GROUP),
	};
	int cap;

	KUNIT_ASSERT_NOT_NULL(test, caps);
	KUNIT_ASSERT_NOT_NULL(test, child);
	child->parent = &init_user_ns;
	child->level = 1;
	for (cap = 0; cap <= CAP_LAST_CAP; cap++)
		caps[cap] = entry(ROOT, GROUP, 0111);
	KUNIT_EXPECT_EQ(test, usercaps_cred_granted(caps, &cred), 0ULL);
}

/*
 * A copy of current's credential with the filesystem ids set to the real
 * ids, as access(2) makes it.
 */
static struct cred *access_cred(struct kunit *test)
{
	struct cred *cred = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, cred);
	cred->fsuid = cred->uid;
	cred->fsgid = cred->gid;
	return cred;
}

/*
 * Under override_creds(), only access(2)'s credential is current's own:
 * a credential with another fsuid (an export's anonuid, as nfsd's LOCALIO
 * path sets it), other groups, another euid or a wider bounding set is a
 * substitute, and so is a credential current is not running with.
 */
static void usercaps_test_substituted_cred(struct kunit *test)
{
	struct cred *own = access_cred(test), *cred;
	const struct cred *old;
	int i;

	KUNIT_EXPECT_TRUE_MSG(test, usercaps_cred_substituted(own),
			      "a credential current does not run with");
	old = override_creds(own);
	KUNIT_EXPECT_FALSE_MSG(test, usercaps_cred_substituted(own),
			       "access(2)'s override credential");
	revert_creds(old);
	put_cred(own);

	/* Only this case's kernel thread runs with the narrower set. */
	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_bset, CAP_KILL);
	commit_creds(cred);

	for (i = 0; i < 5; i++) {
		cred = access_cred(test);
		switch (i) {
		case 0:
			cred->fsuid = KUIDT_INIT(USER);
			break;
		case 1:
			cred->fsgid = KGIDT_INIT(GROUP);
			break;
		case 2:
			put_group_info(cred->group_info);
			cred->group_info = groups_alloc(0);
			KUNIT_ASSERT_NOT_NULL(test, cred->group_info);
			break;
		case 3:
			cred->euid = KUIDT_INIT(USER);
			break;
		case 4:
			cap_raise(cred->cap_bset, CAP_KILL);
			break;
		}
		old = override_creds(cred);
		KUNIT_EXPECT_TRUE_MSG(test, usercaps_cred_substituted(cred),
				      "override credential %d", i);
		revert_creds(old);
		put_cred(cred);
	}
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
	KUNIT_CASE(usercaps_test_class_against_grantees),
	KUNIT_CASE(usercaps_test_only_execute_bits),
	KUNIT_CASE(usercaps_test_default_state),
	KUNIT_CASE(usercaps_test_bounding_set),
	KUNIT_CASE(usercaps_test_user_namespace),
	KUNIT_CASE(usercaps_test_cred_granted),
	KUNIT_CASE(usercaps_test_cred_granted_user_namespace),
	KUNIT_CASE(usercaps_test_substituted_cred),
	{}
};

static struct kunit_suite usercaps_test_suite = {
	.name = "usercaps",
	.test_cases = usercaps_test_cases,
};

/* A capability no test of the system's own ever asks for. */
#define LIVE_CAP	CAP_WAKE_ALARM

/* Sets LIVE_CAP's file as chown and chmod do; 0 or -errno. */
static int live_set(const struct usercaps_entry *entry)
{
	struct inode *inode = usercaps_policy_inode(LIVE_CAP);
	struct iattr attr = {
		.ia_valid = ATTR_UID | ATTR_GID | ATTR_MODE,
		.ia_uid = entry->owner,
		.ia_gid = entry->group,
		.ia_mode = S_IFREG | entry->mode,
	};
	int err;

	inode_lock(inode);
	err = usercaps_policy_setattr(&init_user_ns, LIVE_CAP, inode, &attr);
	inode_unlock(inode);
	return err;
}

/* Sets LIVE_CAP's file to root:root @mode; 0 or -errno. */
static int live_chmod(umode_t mode)
{
	struct usercaps_entry e = entry(ROOT, ROOT, mode);

	return live_set(&e);
}

/* Whether the policy files exist: usercaps is in lsm=. */
static bool live_policy(void)
{
	return usercaps_initialized && usercaps_policy_inode(LIVE_CAP);
}

/*
 * Each case starts from root:root 0101 and its exit puts back the exact
 * owner, group and mode the file had, kept in test->priv. Only at boot,
 * before init runs: once the system runs, the policy is the
 * administrator's, and a case re-run from debugfs must not change it.
 */
static int usercaps_live_init(struct kunit *test)
{
	struct usercaps_entry *saved;

	if (!live_policy())
		kunit_skip(test, "usercaps is not in lsm=");
	if (system_state == SYSTEM_RUNNING)
		kunit_skip(test, "runs at boot only: the policy is in use");
	saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, saved);
	usercaps_policy_get(LIVE_CAP, saved);
	test->priv = saved;
	KUNIT_ASSERT_EQ(test, live_chmod(0101), 0);
	return 0;
}

/* Runs after a skipped init too, which saved nothing. */
static void usercaps_live_exit(struct kunit *test)
{
	const struct usercaps_entry *saved = test->priv;
	struct usercaps_entry now;

	if (!saved)
		return;
	KUNIT_EXPECT_EQ(test, live_set(saved), 0);
	usercaps_policy_get(LIVE_CAP, &now);
	KUNIT_EXPECT_EQ(test, now.mode, saved->mode);
	KUNIT_EXPECT_TRUE(test, uid_eq(now.owner, saved->owner));
	KUNIT_EXPECT_TRUE(test, gid_eq(now.group, saved->group));
}

/* A credential of user USER, in no group, with a percred cache. */
static struct cred *live_cred(struct kunit *test)
{
	struct cred *cred = kunit_kzalloc(test, sizeof(*cred), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cred);
	cred->user_ns = &init_user_ns;
	cred->cap_bset = CAP_FULL_SET;
	cred->fsuid = KUIDT_INIT(USER);
	cred->fsgid = KGIDT_INIT(USER);
	cred->security = kunit_kzalloc(test, usercaps_cred_offset +
				       sizeof(struct usercaps_cred_cache),
				       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cred->security);
	return cred;
}

static struct usercaps_cred_cache *live_cache(const struct cred *cred)
{
	return cred->security + usercaps_cred_offset;
}

/*
 * The generation and LIVE_CAP's may-grant byte as a check reads them; a
 * function, so that a failed expectation names it, not READ_ONCE()'s
 * expansion.
 */
static u64 live_generation(void)
{
	return READ_ONCE(usercaps_generation);
}

static u8 live_may_grant(void)
{
	return !!(READ_ONCE(usercaps_may_grant) & BIT_ULL(LIVE_CAP));
}

/*
 * Each change moves the generation by one and sets the may-grant byte,
 * which naive mode keeps at 1; a chmod to the same mode moves nothing.
 */
static void usercaps_test_publish(struct kunit *test)
{
	u8 revoked = usercaps_mode == USERCAPS_MODE_NAIVE;
	u64 generation = live_generation();

	KUNIT_EXPECT_EQ(test, live_may_grant(), 1);
	KUNIT_ASSERT_EQ(test, live_chmod(0100), 0);
	KUNIT_EXPECT_EQ(test, live_generation(), generation + 1);
	KUNIT_EXPECT_EQ(test, live_may_grant(), revoked);
	KUNIT_ASSERT_EQ(test, live_chmod(0001), 0);
	KUNIT_EXPECT_EQ(test, live_generation(), generation + 2);
	KUNIT_EXPECT_EQ(test, live_may_grant(), 1);
	/* A setattr that changes nothing is no policy change. */
	KUNIT_ASSERT_EQ(test, live_chmod(0001), 0);
	KUNIT_EXPECT_EQ(test, live_generation(), generation + 2);
}

/* A stale cache gets the policy's decisions and the current generation. */
static void usercaps_test_fill(struct kunit *test)
{
	struct cred *cred = live_cred(test);
	struct usercaps_cred_cache *cache = live_cache(cred);
	u64 granted;

	granted = usercaps_percred_fill(cred);
	KUNIT_EXPECT_TRUE(test, granted & BIT_ULL(LIVE_CAP));
	KUNIT_EXPECT_EQ(test, cache->granted, granted);
	KUNIT_EXPECT_EQ(test, cache->generation, live_generation());

	/* After a revocation, the next fill stores the revocation. */
	KUNIT_ASSERT_EQ(test, live_chmod(0100), 0);
	KUNIT_EXPECT_NE(test, cache->generation, live_generation());
	granted = usercaps_percred_fill(cred);
	KUNIT_EXPECT_FALSE(test, granted & BIT_ULL(LIVE_CAP));
	KUNIT_EXPECT_EQ(test, cache->granted, granted);
	KUNIT_EXPECT_EQ(test, cache->generation, live_generation());
}

/*
 * A cache claimed by another fill, or filled for a newer generation than
 * this fill read, is left alone: the fill only answers.
 */
static void usercaps_test_fill_leaves_busy_and_newer(struct kunit *test)
{
	const u64 marks[] = {
		USERCAPS_CACHE_BUSY, live_generation() + 1,
	};
	struct cred *cred = live_cred(test);
	struct usercaps_cred_cache *cache = live_cache(cred);
	int i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		cache->generation = marks[i];
		cache->granted = 0;
		KUNIT_EXPECT_TRUE(test, usercaps_percred_fill(cred) &
					BIT_ULL(LIVE_CAP));
		KUNIT_EXPECT_EQ(test, cache->generation, marks[i]);
		KUNIT_EXPECT_EQ(test, cache->granted, 0ULL);
	}
}

/*
 * KUnit runs this case in a kernel thread: the policy grants LIVE_CAP to
 * the credential, and the check refuses it all the same; and the thread
 * may not change the policy, though it holds CAP_MAC_ADMIN.
 */
static void usercaps_test_kernel_thread_refused(struct kunit *test)
{
	struct cred *cred = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, cred);
	KUNIT_ASSERT_TRUE(test, current->flags & PF_KTHREAD);
	cred->fsuid = KUIDT_INIT(USER);
	cred->fsgid = KGIDT_INIT(USER);
	cap_lower(cred->cap_effective, LIVE_CAP);
	KUNIT_EXPECT_TRUE(test, usercaps_policy_granted(cred) & BIT_ULL(LIVE_CAP));
	KUNIT_EXPECT_EQ(test, usercaps_capable(cred, LIVE_CAP), -EPERM);
	KUNIT_EXPECT_EQ(test, usercaps_allow(cred, LIVE_CAP), -EPERM);
	abort_creds(cred);

	KUNIT_ASSERT_TRUE(test, capable(CAP_MAC_ADMIN));
	KUNIT_EXPECT_FALSE(test, usercaps_may_change_policy());
}

static struct kunit_case usercaps_live_test_cases[] = {
	KUNIT_CASE(usercaps_test_publish),
	KUNIT_CASE(usercaps_test_fill),
	KUNIT_CASE(usercaps_test_fill_leaves_busy_and_newer),
	KUNIT_CASE(usercaps_test_kernel_thread_refused),
	{}
};

static struct kunit_suite usercaps_live_test_suite = {
	.name = "usercaps_live",
	.init = usercaps_live_init,
	.exit = usercaps_live_exit,
	.test_cases = usercaps_live_test_cases,
};

kunit_test_suites(&usercaps_test_suite, &usercaps_live_test_suite);
