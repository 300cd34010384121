#include "db/db_cell.h"

#include <memory>
#include <string>

#include "db/db_session.h"
#include "db/pgbench/pgbench_builtin.h"

namespace tierbench {

IoDir DbTxDirection(const DbWorkload& w) {
  if (!w.parsed_scripts) return DbTxDirection(w.builtin);
  return w.parsed_scripts->AnyWrites() ? IoDir::kWrite : IoDir::kRead;
}

IoDir DbTxDirection(const std::string& builtin) {
  Builtin b;
  if (ParseBuiltin(builtin, &b).ok() && !BuiltinWrites(b)) return IoDir::kRead;
  return IoDir::kWrite;
}

JobResult RunDbCell(const DbWorkload& w, const std::string& block_device,
                    const DbCellOptions& opts, DbCellInfo* info) {
  std::unique_ptr<DbSession> session = DbSession::Create(w, block_device, opts);
  return session->Run(opts, info);
}

}  // namespace tierbench
