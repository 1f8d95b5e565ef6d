/* One hexadecimal digit's value, for the readers of text formats that spell numbers in hex. */
#ifndef CUDX_HEX_H
#define CUDX_HEX_H

/* 0..15, or -1 for a character that is not a hex digit */
static inline int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
