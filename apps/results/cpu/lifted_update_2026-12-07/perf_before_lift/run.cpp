#include "HalideBuffer.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
extern "C" int canon(halide_buffer_t*, halide_buffer_t*, int, halide_buffer_t*);
extern "C" int upd(halide_buffer_t*, halide_buffer_t*, int, halide_buffer_t*);
using namespace Halide::Runtime;
int main(int argc, char**argv){
  int T=atoi(argv[1]); int which=atoi(argv[2]); int iters=atoi(argv[3]);
  Buffer<float> p(T,T,192), v(64,T,192), o(64,T,192);
  p.for_each_value([](float&x){x=rand()%100/100.f;}); v.for_each_value([](float&x){x=rand()%100/100.f;});
  auto f = which? upd: canon;
  std::vector<double> ts;
  for(int rep=0;rep<7;rep++){ auto t0=std::chrono::steady_clock::now(); for(int i=0;i<iters;i++) f(p,v,T,o); ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count()/iters);}
  std::sort(ts.begin(),ts.end()); printf("%s T=%d %.2f us\n", which?"upd":"canon", T, ts[3]*1e6);
}
