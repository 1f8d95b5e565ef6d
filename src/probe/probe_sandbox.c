/* Least privilege for a probe child, entered right after fork() and before any vendor code runs.
 *
 * Why: run as root, NVIDIA's libcuda creates missing device nodes itself (mknod /dev/nvidiactl,
 * /dev/nvidia-uvm) and may run the setuid nvidia-modprobe to load kernel modules, which also
 * removes and recreates nodes whose mode it dislikes. cudx promises never to change the system, so
 * the child gives up what those need:
 *   - PR_SET_NO_NEW_PRIVS: no exec'd helper (nvidia-modprobe) gains privileges from setuid bits
 *     or file capabilities;
 *   - CAP_MKNOD, CAP_SYS_MODULE (and the other capabilities that change the host) leave the
 *     bounding set (so an exec'd helper run as root does not get them back) and the effective,
 *     permitted and inheritable sets, which also empties them from the ambient set;
 *   - as root, a private mount namespace in which /dev is read-only: uid 0 owns /dev and its nodes,
 *     so without it root could still unlink or chmod an existing node with no capability at all.
 *     The mounts never propagate back to the host;
 *   - CUDA_CACHE_DISABLE=1: a PTX JIT would otherwise leave its compute cache in ~/.nv.
 * Each step that fails is recorded and the others still apply: a container without
 * CAP_SYS_ADMIN cannot unshare (its /dev then stays writable for root; nodes still cannot be
 * created), an unprivileged user cannot shrink the bounding set (and needs not: with
 * no_new_privs an exec gains nothing). No libcap: the raw capget/capset ABI is stable and small. */
#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe/probe_sandbox.h"

/* Capabilities that let a process change the host beyond its own files. */
static const int dropped_caps[] = {
	CAP_MKNOD,     CAP_SYS_MODULE, CAP_SYS_ADMIN,  CAP_SYS_RAWIO, CAP_SYS_BOOT,
	CAP_SYS_TIME,  CAP_NET_ADMIN,  CAP_SYS_PTRACE, CAP_SETFCAP,   CAP_MAC_ADMIN,
};
#define N_DROPPED (sizeof dropped_caps / sizeof dropped_caps[0])

static void note(struct probe_sandbox *s, const char *what, int err)
{
	if (s->n_failed < PROBE_SANDBOX_MAX_NOTES)
		snprintf(s->failed[s->n_failed++], sizeof s->failed[0], "%s: %s", what, strerror(err));
}

/* The flags /dev is mounted with that a remount must keep: in a user namespace the kernel refuses
 * a remount that would clear a locked nosuid/nodev/noexec or change the atime mode. */
static unsigned long kept_flags(const char *path)
{
	static const struct {
		unsigned long st, ms;
	} keep[] = {
		{ ST_NOSUID, MS_NOSUID },     { ST_NODEV, MS_NODEV },         { ST_NOEXEC, MS_NOEXEC },
		{ ST_NOATIME, MS_NOATIME },   { ST_NODIRATIME, MS_NODIRATIME }, { ST_RELATIME, MS_RELATIME },
	};
	struct statvfs v;
	unsigned long f = 0;
	if (statvfs(path, &v) == 0)
		for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
			if (v.f_flag & keep[i].st)
				f |= keep[i].ms;
	return f;
}

/* /dev read-only in a private mount namespace. /dev is a mount point on every normal system;
 * where it is not (a bare chroot), bind it onto itself first so it can be remounted. */
static void private_readonly_dev(struct probe_sandbox *s)
{
	if (unshare(CLONE_NEWNS) != 0) {
		note(s, "unshare(CLONE_NEWNS)", errno);
		return;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
		note(s, "mount --make-rprivate /", errno);
		return;
	}
	unsigned long ro = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC | kept_flags("/dev");
	if (mount(NULL, "/dev", NULL, ro, NULL) != 0 &&
	    (mount("/dev", "/dev", NULL, MS_BIND | MS_REC, NULL) != 0 || mount(NULL, "/dev", NULL, ro, NULL) != 0)) {
		note(s, "remount /dev read-only", errno);
		return;
	}
	s->dev_readonly = true;
}

/* The process's capability sets; false (noted) when the kernel refuses. */
static bool caps_get(struct probe_sandbox *s, struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3])
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	memset(data, 0, sizeof(struct __user_cap_data_struct) * _LINUX_CAPABILITY_U32S_3);
	if (syscall(SYS_capget, &hdr, data) == 0)
		return true;
	note(s, "capget", errno);
	return false;
}

static void drop_capabilities(struct probe_sandbox *s)
{
	for (size_t i = 0; i < N_DROPPED; i++) /* EPERM: no CAP_SETPCAP (not root); EINVAL: older kernel */
		if (prctl(PR_CAPBSET_DROP, dropped_caps[i], 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM)
			note(s, "PR_CAPBSET_DROP", errno);
	/* ambient capabilities survive exec without setuid: none at all (EINVAL before Linux 4.3) */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
		note(s, "PR_CAP_AMBIENT_CLEAR_ALL", errno);
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	if (!caps_get(s, data))
		return;
	for (size_t i = 0; i < N_DROPPED; i++) {
		unsigned idx = (unsigned)dropped_caps[i] / 32, bit = 1u << ((unsigned)dropped_caps[i] % 32);
		data[idx].effective &= ~bit;
		data[idx].permitted &= ~bit;
		data[idx].inheritable &= ~bit;
	}
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	if (syscall(SYS_capset, &hdr, data) != 0) {
		note(s, "capset", errno);
		return;
	}
	/* read back: the claim in the report is what the kernel holds, not what was asked for */
	if (!caps_get(s, data))
		return;
	for (size_t i = 0; i < N_DROPPED; i++) {
		unsigned idx = (unsigned)dropped_caps[i] / 32, bit = 1u << ((unsigned)dropped_caps[i] % 32);
		if ((data[idx].effective | data[idx].permitted | data[idx].inheritable) & bit) {
			note(s, "capset left a capability in place", EPERM);
			return;
		}
	}
	s->caps_dropped = true;
}

void probe_sandbox_enter(struct probe_sandbox *s)
{
	memset(s, 0, sizeof *s);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
		s->no_new_privs = true;
	else
		note(s, "PR_SET_NO_NEW_PRIVS", errno);
	/* the namespace first: creating it needs CAP_SYS_ADMIN, which is dropped next */
	s->dev_needed = geteuid() == 0;
	if (s->dev_needed)
		private_readonly_dev(s);
	drop_capabilities(s);
	setenv("CUDA_CACHE_DISABLE", "1", 1);
}

bool probe_sandbox_complete(const struct probe_sandbox *s)
{
	return s->no_new_privs && s->caps_dropped && (s->dev_readonly || !s->dev_needed);
}

void probe_sandbox_encode(const struct probe_sandbox *s, char *buf, size_t n)
{
	int k = snprintf(buf, n, "nnp=%d|caps=%d|root=%d|dev=%d", s->no_new_privs, s->caps_dropped, s->dev_needed,
			 s->dev_readonly);
	for (size_t i = 0; i < s->n_failed && k >= 0 && (size_t)k < n; i++)
		k += snprintf(buf + k, n - (size_t)k, "|fail=%s", s->failed[i]);
}

void probe_sandbox_decode(const char *text, struct probe_sandbox *s)
{
	memset(s, 0, sizeof *s);
	s->reported = true;
	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, "|");
		if (len > 5 && strncmp(p, "fail=", 5) == 0) {
			if (s->n_failed < PROBE_SANDBOX_MAX_NOTES)
				snprintf(s->failed[s->n_failed++], sizeof s->failed[0], "%.*s", (int)(len - 5), p + 5);
		} else if (len == 5 && p[3] == '=' && strncmp(p, "nnp", 3) == 0)
			s->no_new_privs = p[4] == '1';
		else if (len == 6 && strncmp(p, "caps=", 5) == 0)
			s->caps_dropped = p[5] == '1';
		else if (len == 6 && strncmp(p, "root=", 5) == 0)
			s->dev_needed = p[5] == '1';
		else if (len == 5 && strncmp(p, "dev=", 4) == 0)
			s->dev_readonly = p[4] == '1';
		p += len + (p[len] == '|');
	}
}
