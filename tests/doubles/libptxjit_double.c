/* TEST DOUBLE of libnvidia-ptxjitcompiler.so.1: nothing in it is called; the libcuda double only
 * needs to find it by name, as the real libcuda does before it JIT-compiles PTX. */
int cudx_double_ptxjit(void)
{
	return 0;
}
