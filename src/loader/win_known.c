/* Names Windows provides itself, so a copied tree that lacks them is not "missing" them.
 * API sets are virtual names the OS maps through its API set schema (formats.md §4.2): never files
 * to look for. KnownDLLs: HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\KnownDLLs as listed
 * on Windows 10 22H2 / 11 x64 (public registry dumps; lucasg/Dependencies reads the same key),
 * plus ntdll.dll and kernelbase.dll which every process has loaded before any DLL of its own.
 * The key cannot be read from a copied tree, so this list stands in for it. Proposed as kb rows
 * (data/libs.tsv, os=windows, family=os) when the knowledge base gets a place for them. */
#include <string.h>
#include <strings.h>

#include "loader/win_loader.h"

static const char *const known_dlls[] = {
	"advapi32.dll", "clbcatq.dll",  "combase.dll",  "comdlg32.dll", "coml2.dll",    "difxapi.dll",
	"gdi32.dll",    "gdiplus.dll",  "imagehlp.dll", "imm32.dll",    "kernel32.dll", "msctf.dll",
	"msvcrt.dll",   "normaliz.dll", "nsi.dll",      "ole32.dll",    "oleaut32.dll", "psapi.dll",
	"rpcrt4.dll",   "sechost.dll",  "setupapi.dll", "shcore.dll",   "shell32.dll",  "shlwapi.dll",
	"user32.dll",   "wldap32.dll",  "wow64.dll",    "wow64win.dll", "ws2_32.dll",   "ntdll.dll",
	"kernelbase.dll",
};

bool win_is_api_set(const char *name)
{
	return strncasecmp(name, "api-ms-win-", 11) == 0 || strncasecmp(name, "ext-ms-", 7) == 0;
}

bool win_is_known_dll(const char *name)
{
	for (size_t i = 0; i < sizeof known_dlls / sizeof known_dlls[0]; i++)
		if (strcasecmp(known_dlls[i], name) == 0)
			return true;
	return false;
}
