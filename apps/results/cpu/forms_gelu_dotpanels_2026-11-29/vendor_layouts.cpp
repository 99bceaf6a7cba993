#include <cblas.h>
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
int main(){ const int K=768,N=2304;
 for(int T: {1,2,5,16}){ int M=16*T; std::vector<float> A(M*K,0.5f), B(K*N,0.25f), C(M*N);
  double best[4]={1e9,1e9,1e9,1e9};
  for(int r=0;r<20;r++) for(int v=0;v<4;v++){ bool ta=v&2, tb=v&1;
    auto t0=std::chrono::steady_clock::now();
    // NN: A[M][K], B[K][N]; NT: B[N][K]; TN: A[K][M]
    cblas_sgemm(CblasRowMajor, ta?CblasTrans:CblasNoTrans, tb?CblasTrans:CblasNoTrans, M,N,K,1.f,A.data(), ta?M:K, B.data(), tb?K:N, 0.f, C.data(), N);
    best[v]=std::min(best[v],std::chrono::duration<double,std::milli>(std::chrono::steady_clock::now()-t0).count());}
  printf("T=%d NN %.3f NT %.3f TN %.3f TT %.3f ms\n",T,best[0],best[1],best[2],best[3]);}}
