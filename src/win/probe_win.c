/* Live load probe on Windows: the real loader's answer next to the simulated one. The parent runs
 * itself again as "cudx.exe --probe-child NAME" with a pipe for stdout; the child calls
 * LoadLibraryExW with the standard search order and prints "ok<TAB>path" or "err<TAB>code". */
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

#include "win/native.h"

int win_probe_child(const char *name)
{
	/* no "cannot find DLL" message boxes: report the error code instead */
	SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
	int n = MultiByteToWideChar(CP_UTF8, 0, name, -1, NULL, 0);
	if (n <= 0 || n > 32768)
		return 2;
	wchar_t *w = malloc((size_t)n * sizeof *w);
	MultiByteToWideChar(CP_UTF8, 0, name, -1, w, n);
	HMODULE h = LoadLibraryExW(w, NULL, 0);
	if (!h) {
		printf("err\t%lu\n", (unsigned long)GetLastError());
		return 0;
	}
	wchar_t path[32768];
	DWORD len = GetModuleFileNameW(h, path, 32768);
	char out[3 * 32768];
	if (len == 0 || !WideCharToMultiByte(CP_UTF8, 0, path, -1, out, sizeof out, NULL, NULL))
		snprintf(out, sizeof out, "?");
	printf("ok\t%s\n", out);
	return 0;
}

void win_probe_load(struct arena *a, const char *name, double timeout_s, struct win_probe_result *r)
{
	memset(r, 0, sizeof *r);
	wchar_t self[32768];
	if (!GetModuleFileNameW(NULL, self, 32768)) {
		r->problem = "cannot find cudx.exe's own path";
		return;
	}
	SECURITY_ATTRIBUTES sa = { sizeof sa, NULL, TRUE };
	HANDLE rd, wr;
	if (!CreatePipe(&rd, &wr, &sa, 0)) {
		r->problem = "CreatePipe failed";
		return;
	}
	SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdOutput = wr;
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
	int n = MultiByteToWideChar(CP_UTF8, 0, name, -1, NULL, 0);
	if (n <= 0 || n > 1024) {
		CloseHandle(rd), CloseHandle(wr);
		r->problem = "name too long";
		return;
	}
	wchar_t wname[1024];
	MultiByteToWideChar(CP_UTF8, 0, name, -1, wname, n);
	wchar_t cmd[34000];
	_snwprintf(cmd, sizeof cmd / sizeof cmd[0], L"\"%ls\" --probe-child \"%ls\"", self, wname);
	cmd[sizeof cmd / sizeof cmd[0] - 1] = 0;
	BOOL ok = CreateProcessW(self, cmd, NULL, NULL, TRUE, CREATE_NO_WINDOW, NULL, NULL, &si, &pi);
	CloseHandle(wr);
	if (!ok) {
		CloseHandle(rd);
		r->problem = "CreateProcess failed";
		return;
	}
	DWORD wait = WaitForSingleObject(pi.hProcess, (DWORD)(timeout_s * 1000));
	if (wait != WAIT_OBJECT_0) {
		TerminateProcess(pi.hProcess, 1);
		r->problem = "the load did not finish in time (DllMain hung?)";
	}
	char buf[4 * 32768 + 16];
	DWORD got = 0, total = 0;
	while (total < sizeof buf - 1 && ReadFile(rd, buf + total, (DWORD)(sizeof buf - 1 - total), &got, NULL) && got)
		total += got;
	buf[total] = 0;
	CloseHandle(rd);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	if (r->problem)
		return;
	char *nl = strpbrk(buf, "\r\n");
	if (nl)
		*nl = 0;
	if (strncmp(buf, "ok\t", 3) == 0) {
		r->ran = r->loaded = true;
		r->path = arena_strdup(a, buf + 3);
	} else if (strncmp(buf, "err\t", 4) == 0) {
		r->ran = true;
		r->error = strtoul(buf + 4, NULL, 10);
	} else {
		r->problem = "the probe child gave no answer (it crashed while loading?)";
	}
}
