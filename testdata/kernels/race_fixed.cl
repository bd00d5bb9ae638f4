// xeopt-test: -O2
/* race_store of race.cl without the race: the input side of the test that an
 * optimized module racing where its input does not is a --verify difference
 * (tests/test_racecheck.c). */
kernel void race_store(global int *out)
{
    out[get_global_id(0)] = (int)get_global_id(0);
}
