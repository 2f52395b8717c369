// SPDX-License-Identifier: GPL-2.0
/*
 * fleet --shard's check of the hosts (fleet_facts.h): alike hosts pass;
 * each fact that differs is one line naming every value and its hosts;
 * a fact a probe did not give is 'unknown', and differs from a known one.
 */
#include <string.h>

#include "check.h"
#include "fleet_facts.h"

static const char *const labels[] = { "a", "b", "c" };

static struct host_facts alike(void)
{
	struct host_facts f = { 0 };

	strcpy(f.v[HF_CPU_MODEL], "AMD EPYC 9654 96-Core Processor");
	strcpy(f.v[HF_NPROC], "8");
	strcpy(f.v[HF_KERNEL_RELEASE], "6.18.0");
	return f;
}

TEST(alike_hosts_pass)
{
	struct host_facts f[3] = { alike(), alike(), alike() };
	char buf[512] = "x";

	CHECK_INT(host_facts_differ(f, labels, 3, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	/* one host is alike itself */
	CHECK_INT(host_facts_differ(f, labels, 1, buf, sizeof(buf)), 0);
}

TEST(one_fact_differs_on_one_host)
{
	struct host_facts f[3] = { alike(), alike(), alike() };
	char buf[512];

	strcpy(f[1].v[HF_NPROC], "4");
	CHECK_INT(host_facts_differ(f, labels, 3, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "nproc: '8' on a, c; '4' on b\n");
}

TEST(every_fact_differs)
{
	struct host_facts f[3] = { alike(), alike(), alike() };
	char buf[1024];

	strcpy(f[2].v[HF_CPU_MODEL], "HiSilicon Kunpeng 920");
	strcpy(f[1].v[HF_NPROC], "72");
	strcpy(f[2].v[HF_NPROC], "4");
	strcpy(f[0].v[HF_KERNEL_RELEASE], "6.1.0-27-amd64");
	CHECK_INT(host_facts_differ(f, labels, 3, buf, sizeof(buf)), 3);
	CHECK_STR(buf, "cpu_model: 'AMD EPYC 9654 96-Core Processor' on a, b; "
		  "'HiSilicon Kunpeng 920' on c\n"
		  "nproc: '8' on a; '72' on b; '4' on c\n"
		  "kernel_release: '6.1.0-27-amd64' on a; '6.18.0' on b, c\n");
}

TEST(unknown_differs_from_known)
{
	struct host_facts f[2] = { alike(), alike() };
	char buf[512];

	f[0].v[HF_KERNEL_RELEASE][0] = '\0';
	CHECK_INT(host_facts_differ(f, labels, 2, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "kernel_release: 'unknown' on a; '6.18.0' on b\n");
	f[1].v[HF_KERNEL_RELEASE][0] = '\0';
	CHECK_INT(host_facts_differ(f, labels, 2, buf, sizeof(buf)), 0);
}

TEST(a_short_buffer_is_cut_not_overrun)
{
	struct host_facts f[2] = { alike(), alike() };
	char buf[16];

	strcpy(f[1].v[HF_CPU_MODEL], "another model with a long name");
	memset(buf, 'z', sizeof(buf));
	CHECK_INT(host_facts_differ(f, labels, 2, buf, 12), 1);
	CHECK_INT((int)strlen(buf), 11);
	CHECK(buf[12] == 'z');
}

RUN_TESTS(alike_hosts_pass, one_fact_differs_on_one_host, every_fact_differs,
	  unknown_differs_from_known, a_short_buffer_is_cut_not_overrun);
