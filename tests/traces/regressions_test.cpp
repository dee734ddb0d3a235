// Every file in tests/traces/regressions/ (inputs the fuzzers once crashed
// or hung on, plus hand-made nasty cases) fed to every reader, with and
// without skip_bad: a reader may reject the input with TraceError, and must
// do nothing else (no crash, no other exception, no endless loop).

#include "tests/traces/trace_test_util.h"

using namespace trace_test;

TEST(Regressions, EveryReaderSurvivesEveryFile) {
  const fs::path dir = fs::path(SSDSIM_SOURCE_DIR) / "tests/traces/regressions";
  ASSERT_TRUE(fs::is_directory(dir));
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() == ".md") continue;
    ++files;
    for (const std::string& format : traces::trace_formats()) {
      for (bool skip : {false, true}) {
        SCOPED_TRACE(e.path().filename().string() + " as " + format + (skip ? " skip_bad" : ""));
        traces::ReaderOptions opts;
        opts.skip_bad = skip;
        try {
          auto r = traces::open_trace(e.path().string(), format, opts);
          traces::TraceRecord rec;
          uint64_t n = 0;
          while (r->next(rec)) {
            ASSERT_TRUE(rec.bytes > 0 || rec.op == traces::TraceOp::Flush);
            ++n;
          }
          EXPECT_EQ(r->stats().records, n);
        } catch (const traces::TraceError& err) {
          EXPECT_NE(std::string(err.what()).find(e.path().string()), std::string::npos);
        }
      }
    }
    try {
      traces::detect_format(e.path().string());
    } catch (const traces::TraceError&) {
    }
  }
  EXPECT_GT(files, 0u);
}
