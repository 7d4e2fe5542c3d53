// glibc's allocator tuning (mallopt), for browser-demo on Linux only: see Apps/BrowserDemo/main.swift.
#include <malloc.h>
