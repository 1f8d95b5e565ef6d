/* Least privilege for a probe child, entered right after fork() and before any vendor code runs.
 *
 * Why: run as root, NVIDIA's libcuda creates missing device nodes itself (mknod /dev/nvidiactl,
 * /dev/nvidia-uvm) and may run the setuid nvidia-modprobe to load kernel modules. cudx promises
 * never to change the system, so the child gives up what those need:
 *   - PR_SET_NO_NEW_PRIVS: no exec'd helper (nvidia-modprobe) gains privileges from setuid bits;
 *   - CAP_MKNOD, CAP_SYS_MODULE (and the other capabilities that change the host) leave the
 *     bounding set and the effective/permitted/inheritable sets;
 *   - as root, a private mount namespace in which /dev is read-only, so even a process that kept
 *     a capability cannot add a node there. The mounts never propagate back to the host.
 * Each step that fails (a container without CAP_SYS_ADMIN cannot unshare) is recorded; the
 * others still apply. No libcap: the raw capset(2) ABI is stable and small. */
#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe/probe_sandbox.h"

/* Capabilities that let a process change the host beyond its own files. */
static const int dropped_caps[] = {
	CAP_MKNOD,     CAP_SYS_MODULE, CAP_SYS_ADMIN, CAP_SYS_RAWIO, CAP_SYS_BOOT,
	CAP_SYS_TIME,  CAP_NET_ADMIN,  CAP_SYS_PTRACE, CAP_SETFCAP, CAP_MAC_ADMIN,
};
#define N_DROPPED (sizeof dropped_caps / sizeof dropped_caps[0])

static void note(struct probe_sandbox *s, const char *what, int err)
{
	if (s->n_failed < PROBE_SANDBOX_MAX_NOTES)
		snprintf(s->failed[s->n_failed++], sizeof s->failed[0], "%s: %s", what, strerror(err));
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
	unsigned long ro = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC;
	if (mount(NULL, "/dev", NULL, ro, NULL) != 0 &&
	    (mount("/dev", "/dev", NULL, MS_BIND | MS_REC, NULL) != 0 || mount(NULL, "/dev", NULL, ro, NULL) != 0)) {
		note(s, "remount /dev read-only", errno);
		return;
	}
	s->dev_readonly = true;
}

static void drop_capabilities(struct probe_sandbox *s)
{
	for (size_t i = 0; i < N_DROPPED; i++)
		if (prctl(PR_CAPBSET_DROP, dropped_caps[i], 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM)
			note(s, "PR_CAPBSET_DROP", errno);
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	memset(data, 0, sizeof data);
	if (syscall(SYS_capget, &hdr, data) != 0) {
		note(s, "capget", errno);
		return;
	}
	for (size_t i = 0; i < N_DROPPED; i++) {
		unsigned idx = (unsigned)dropped_caps[i] / 32, bit = 1u << ((unsigned)dropped_caps[i] % 32);
		data[idx].effective &= ~bit;
		data[idx].permitted &= ~bit;
		data[idx].inheritable &= ~bit;
	}
	if (syscall(SYS_capset, &hdr, data) != 0) {
		note(s, "capset", errno);
		return;
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
	if (geteuid() == 0)
		private_readonly_dev(s);
	drop_capabilities(s);
}
