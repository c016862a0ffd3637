/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usercapsctl - shared declarations
 */
#ifndef USERCAPSCTL_H
#define USERCAPSCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Exit statuses, documented in usercapsctl.8. */
enum uc_exit {
	UC_EXIT_OK = 0,
	UC_EXIT_NOT_HELD = 1,		/* check: the user does not hold it */
	UC_EXIT_USAGE = 2,
	UC_EXIT_UNKNOWN_CAP = 3,
	UC_EXIT_UNKNOWN_ID = 4,
	UC_EXIT_NOT_ROOT = 5,
	UC_EXIT_INACTIVE = 6,		/* usercaps is not in this kernel's lsm= */
	UC_EXIT_DANGEROUS = 7,		/* refused without --force */
	UC_EXIT_BAD_FILE = 8,		/* a policy file: unreadable, refused, bad */
	UC_EXIT_FAILED = 9,		/* a system call failed; nothing changed */
	UC_EXIT_REFUSED = 10,		/* the kernel refused: needs CAP_MAC_ADMIN */
	UC_EXIT_MIXED = 11,		/* a change and its rollback failed */
	UC_EXIT_STILL_HELD = 12,	/* revoke: through another class */
	UC_EXIT_LOCKED = 13,		/* the lock is still held after --wait */
	UC_EXIT_INEXACT = 14,		/* show-config: no policy file says it */
};

/* A capability file's mode bits that grant, by class. */
#define UC_OWNER_X 0100
#define UC_GROUP_X 0010
#define UC_OTHER_X 0001
#define UC_DEFAULT_MODE UC_OWNER_X

/* Who holds a capability: its file's owner, group and mode. */
struct uc_entry {
	uid_t owner;
	gid_t group;
	mode_t mode;
};

/* The capabilities usercapsctl knows (caps.c): 0 to UC_NCAPS - 1. */
#define UC_NCAPS 41

/*
 * The policy as read from the usercaps directory, indexed by capability;
 * a kernel may lack a capability that this tool knows.
 */
struct uc_policy {
	int dirfd;
	const char *dir;
	bool present[UC_NCAPS];
	struct uc_entry entry[UC_NCAPS];
};

/* The longest user or group name accepted: Linux's LOGIN_NAME_MAX. */
#define UC_ID_NAME_MAX 256

/* The mode classes a grant names, as in a policy file and the options. */
enum uc_class {
	UC_USER,
	UC_GROUP,
	UC_OTHER,
};

struct uc_target {
	enum uc_class class;
	unsigned int id;	/* uid or gid; unused for UC_OTHER */
};

/* usercapsctl.c */
extern const char *uc_prog;
int uc_err(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *uc_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* journal.c: syslog priorities, LOG_ERR and the others of <syslog.h> */
const char *uc_journal_prefix(int priority);

/* caps.c */
const char *uc_cap_name(int cap);
int uc_cap_lookup(const char *name, int *cap);

/* paths.c */
const char *uc_root(void);

/* lock.c */
#define UC_LOCK_WAIT 30		/* seconds, by default */
int uc_lock(unsigned int wait);

/* policy.c */
int uc_policy_open(struct uc_policy *p, bool for_change, unsigned int wait);
void uc_policy_offline(struct uc_policy *p);
unsigned int uc_grantees(const struct uc_entry *e);
void uc_entry_grant(struct uc_entry *e, const struct uc_target *t);
void uc_entry_exclude(struct uc_entry *e, const struct uc_target *t);
bool uc_entry_revoke(struct uc_entry *e, const struct uc_target *t, bool in_group);
int uc_require_root(void);
int uc_policy_commit(struct uc_policy *p, const struct uc_entry *want);

/* ids.c */
const char *uc_id_entry(enum uc_class class, unsigned int id);
int uc_id_lookup(enum uc_class class, const char *s, unsigned int *id);
int uc_id_resolve(enum uc_class class, const char *s, unsigned int *id, const char *where);
int uc_target_lookup(enum uc_class class, const char *s, struct uc_target *t,
		     const char *where);
const char *uc_user_name(uid_t uid);
const char *uc_group_name(gid_t gid);
const char *uc_target_str(const struct uc_target *t);
const char *uc_id_word(enum uc_class class, unsigned int id);
bool uc_user_in_group(uid_t uid, gid_t gid);

/* risk.c: how risky a grant is */
enum uc_tier {
	UC_TIER_NONE,
	UC_TIER_WARN,		/* granted with a warning */
	UC_TIER_FORCE,		/* refused without --force or "force" */
};
enum uc_tier uc_grant_risk(int cap, const struct uc_target *t, const char **why);

/* policyfile.c: reading a policy file, line by line */
#define UC_FILE_MAX (1 << 20)	/* bytes of a policy file, at most */
struct uc_file {
	const char *path;
	char *text;		/* the whole file, NUL-terminated */
	size_t size;
	size_t next;		/* where the next line starts */
	unsigned int lineno;
	bool unreadable;	/* it could not be read, as opposed to refused */
};
struct stat;
int uc_owner_check(const char *path, const struct stat *st);
int uc_file_open(struct uc_file *f, const char *path);
char *uc_file_line(struct uc_file *f, int *status);
void uc_file_close(struct uc_file *f);

/* confdirs.c: the files that make the policy, in order */
struct uc_conf_file {
	const char *path;	/* NULL ends a list */
	const char *name;	/* a drop-in's name, which masks it in later directories */
	int rank;		/* a drop-in's directory, by precedence; -1 for others */
	const char *skip;	/* why it is not read, or NULL */
};
int uc_system_files(struct uc_conf_file **files);
struct uc_conf_file *uc_named_files(char *const *paths);

/* config.c */
enum {
	UC_CONF_FORCE = 1 << 0,	/* accept dangerous grants without "force" */
	UC_CONF_BOOT = 1 << 1,	/* skip bad lines and files instead of failing */
	UC_CONF_LIST = 1 << 2,	/* name every file read or skipped, and why */
};

/* The line that decides one class of one capability: the last one. */
struct uc_line {
	const char *path;	/* NULL: no line */
	unsigned int lineno;
	struct uc_target target;
	bool force;
	bool excluded;		/* owner or group without its execute bit */
};

struct uc_config {
	struct uc_line line[UC_NCAPS][3];	/* by capability, then class */
	bool unreadable;	/* a file or directory could not be read */
};
int uc_config_read(const struct uc_policy *p, const struct uc_conf_file *files,
		   unsigned int flags, struct uc_config *c);
void uc_config_want(const struct uc_config *c, struct uc_entry *want);
void uc_config_print_line(FILE *out, int cap, const struct uc_target *t, const char *flag);
void uc_config_cat(const struct uc_config *c);

/* save.c: the policy as a policy file */
int uc_config_write(const struct uc_policy *p, FILE *out);
int uc_config_save(const struct uc_policy *p, const char *path);

/* show.c */
void uc_list_table(const struct uc_policy *p);
void uc_list_json(const struct uc_policy *p);
int uc_check(const struct uc_policy *p, int cap, const char *user);

#endif /* USERCAPSCTL_H */
