// Fresh pages on this VM: malloc + memset + free of 13.6 MB (a 512 x 512 x 13 float buffer), five times, then a warm memset.
// Build: gcc -O2 page_faults.c -o /tmp/pf && /tmp/pf
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
volatile char sink;
int main(){ size_t n=13631488; for(int it=0;it<5;it++){double t=now(); char* volatile p=malloc(n); memset(p,it,n); sink=p[n/2]; free(p); double t2=now(); printf("alloc+touch+free %.2f ms\n",(t2-t)*1e3);} 
 char* volatile p=malloc(n); memset(p,0,n); double t=now(); for(int i=0;i<10;i++) {memset(p,i,n); sink=p[i];} printf("warm memset %.3f ms\n",(now()-t)*1e3/10); }
