-- A ledger file as the SQLite store wrote it at schema version 2 (ledger_transfers with a plain row id and
-- three index trees, operation bodies stored whole): the version-1 fixture (ledger-v1.sql) opened by that
-- store, dumped with `sqlite3 .dump`. test/ledger/migration.test.ts opens it with the current store.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE ledger_accounts (
  owner TEXT NOT NULL,
  asset TEXT NOT NULL CHECK (asset IN ('USDC', 'OCT')),
  debits_posted INTEGER NOT NULL DEFAULT 0,
  credits_posted INTEGER NOT NULL DEFAULT 0,
  debits_pending INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (owner, asset),
  CHECK (owner IN ('treasury', 'mint') OR (owner LIKE 'agent:0x%' AND length(owner) = 48)),
  -- SQLite turns an overflowing integer sum into a float: refuse it.
  CHECK (typeof(debits_posted) = 'integer' AND typeof(credits_posted) = 'integer' AND typeof(debits_pending) = 'integer'),
  CHECK (debits_posted >= 0 AND credits_posted >= 0 AND debits_pending >= 0),
  CHECK (owner <> 'mint' OR debits_pending = 0),
  CHECK (owner = 'mint' OR credits_posted - debits_posted - debits_pending >= 0)
) WITHOUT ROWID;
INSERT INTO ledger_accounts VALUES('agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa','USDC',300,1000,300);
INSERT INTO ledger_accounts VALUES('agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb','OCT',0,5,0);
INSERT INTO ledger_accounts VALUES('agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb','USDC',0,290,0);
INSERT INTO ledger_accounts VALUES('mint','OCT',5,0,0);
INSERT INTO ledger_accounts VALUES('mint','USDC',1000,0,0);
INSERT INTO ledger_accounts VALUES('treasury','USDC',0,10,0);
CREATE TABLE ledger_operations (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('deposit', 'withdraw', 'transfer', 'hold', 'resolve', 'void', 'mint')),
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO ledger_operations VALUES('c1:escrow','hold','{"kind":"hold","owner":"agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","asset":"USDC","amount":"300","holdKind":"escrow","contractId":"c1"}','2026-11-23T21:35:42.763Z');
INSERT INTO ledger_operations VALUES('c1:settle:0','resolve','{"kind":"resolve","holdId":"c1:escrow","parts":[{"to":"agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","amount":"290"},{"to":"treasury","amount":"10"}]}','2026-11-23T21:35:42.799Z');
INSERT INTO ledger_operations VALUES('c2:escrow','hold','{"kind":"hold","owner":"agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","asset":"USDC","amount":"200","holdKind":"escrow","contractId":"c2"}','2026-11-23T21:35:42.782Z');
INSERT INTO ledger_operations VALUES('d1','deposit','{"kind":"deposit","asset":"USDC","to":"agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","amount":"1000"}','2026-11-23T21:35:42.729Z');
INSERT INTO ledger_operations VALUES('elig:a','hold','{"kind":"hold","owner":"agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","asset":"USDC","amount":"100","holdKind":"eligibility"}','2026-11-23T21:35:42.788Z');
INSERT INTO ledger_operations VALUES('m1','mint','{"kind":"mint","asset":"OCT","to":"agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","amount":"5","contractId":"c1"}','2026-11-23T21:35:42.829Z');
CREATE TABLE panel_seats (
  contract_id TEXT NOT NULL,
  backup_agent TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  closed_at TEXT,
  PRIMARY KEY (contract_id, backup_agent)
);
CREATE TABLE vote_rows (
  contract_id TEXT NOT NULL,
  backup_agent TEXT NOT NULL,
  criterion_index INTEGER NOT NULL CHECK (criterion_index >= 0),
  vote TEXT NOT NULL CHECK (vote IN ('met', 'not met', 'unclear', 'no vote')),
  majority_outcome TEXT NOT NULL CHECK (majority_outcome IN ('met', 'not met', 'unclear')),
  bond_outcome TEXT NOT NULL CHECK (bond_outcome IN ('returned', 'slashed', 'partially slashed')),
  reward BIGINT NOT NULL CHECK (reward >= 0),
  tallied_at TEXT NOT NULL,
  PRIMARY KEY (contract_id, backup_agent, criterion_index)
);
CREATE TABLE IF NOT EXISTS "ledger_transfers" (
  seq INTEGER PRIMARY KEY,
  op_id TEXT NOT NULL REFERENCES ledger_operations (id),
  idx INTEGER NOT NULL CHECK (idx >= 0),
  type TEXT NOT NULL CHECK (type IN ('posted', 'pending', 'post', 'void')),
  asset TEXT NOT NULL,
  debit_owner TEXT NOT NULL,
  credit_owner TEXT,
  amount INTEGER NOT NULL CHECK (typeof(amount) = 'integer' AND amount > 0),
  hold_id TEXT,
  closes_hold TEXT,
  hold_kind TEXT CHECK (hold_kind IN ('escrow', 'stake', 'dispute-bond', 'ba-bond', 'eligibility')),
  contract_id TEXT,
  created_at TEXT NOT NULL,
  FOREIGN KEY (debit_owner, asset) REFERENCES ledger_accounts (owner, asset),
  FOREIGN KEY (credit_owner, asset) REFERENCES ledger_accounts (owner, asset),
  CHECK (CASE type
    WHEN 'posted' THEN credit_owner IS NOT NULL AND credit_owner <> debit_owner
      AND hold_id IS NULL AND closes_hold IS NULL AND hold_kind IS NULL
    WHEN 'pending' THEN credit_owner IS NULL AND debit_owner <> 'mint' AND hold_id = op_id AND idx = 0
      AND closes_hold IS NULL AND hold_kind IS NOT NULL
    WHEN 'post' THEN credit_owner IS NOT NULL AND credit_owner <> debit_owner AND credit_owner <> 'mint'
      AND hold_id IS NOT NULL AND hold_kind IS NOT NULL
    WHEN 'void' THEN credit_owner IS NULL AND hold_id IS NOT NULL AND hold_kind IS NOT NULL
  END),
  CHECK (closes_hold IS NULL OR closes_hold = hold_id)
);
INSERT INTO ledger_transfers VALUES(1,'d1',0,'posted','USDC','mint','agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',1000,NULL,NULL,NULL,NULL,'2026-11-23T21:35:42.729Z');
INSERT INTO ledger_transfers VALUES(2,'c1:escrow',0,'pending','USDC','agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',NULL,300,'c1:escrow',NULL,'escrow','c1','2026-11-23T21:35:42.763Z');
INSERT INTO ledger_transfers VALUES(3,'c2:escrow',0,'pending','USDC','agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',NULL,200,'c2:escrow',NULL,'escrow','c2','2026-11-23T21:35:42.782Z');
INSERT INTO ledger_transfers VALUES(4,'elig:a',0,'pending','USDC','agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',NULL,100,'elig:a',NULL,'eligibility',NULL,'2026-11-23T21:35:42.788Z');
INSERT INTO ledger_transfers VALUES(5,'c1:settle:0',0,'post','USDC','agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa','agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',290,'c1:escrow','c1:escrow','escrow','c1','2026-11-23T21:35:42.799Z');
INSERT INTO ledger_transfers VALUES(6,'c1:settle:0',1,'post','USDC','agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa','treasury',10,'c1:escrow',NULL,'escrow','c1','2026-11-23T21:35:42.799Z');
INSERT INTO ledger_transfers VALUES(7,'m1',0,'posted','OCT','mint','agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',5,NULL,NULL,NULL,'c1','2026-11-23T21:35:42.829Z');
CREATE TRIGGER ledger_operations_no_update BEFORE UPDATE ON ledger_operations
BEGIN SELECT RAISE(ABORT, 'ledger_operations rows are immutable'); END;
CREATE TRIGGER ledger_operations_no_delete BEFORE DELETE ON ledger_operations
BEGIN SELECT RAISE(ABORT, 'ledger_operations rows are immutable'); END;
CREATE INDEX panel_seats_by_agent ON panel_seats (backup_agent, closed_at);
CREATE INDEX vote_rows_by_agent ON vote_rows (backup_agent, contract_id, criterion_index);
CREATE UNIQUE INDEX ledger_transfers_hold ON ledger_transfers (hold_id, closes_hold)
  WHERE hold_id IS NOT NULL;
CREATE INDEX ledger_transfers_contract ON ledger_transfers (contract_id) WHERE contract_id IS NOT NULL;
CREATE INDEX ledger_transfers_holder ON ledger_transfers (debit_owner, hold_kind) WHERE type = 'pending';
CREATE TRIGGER ledger_transfers_no_update BEFORE UPDATE ON ledger_transfers
BEGIN SELECT RAISE(ABORT, 'ledger_transfers rows are immutable'); END;
CREATE TRIGGER ledger_transfers_no_delete BEFORE DELETE ON ledger_transfers
BEGIN SELECT RAISE(ABORT, 'ledger_transfers rows are immutable'); END;
CREATE TRIGGER ledger_transfers_check_resolution BEFORE INSERT ON ledger_transfers
WHEN NEW.type IN ('post', 'void')
BEGIN
  SELECT RAISE(ABORT, 'resolution of an unknown hold') WHERE NOT EXISTS (
    SELECT 1 FROM ledger_transfers h INDEXED BY ledger_transfers_hold WHERE h.hold_id = NEW.hold_id AND h.type = 'pending'
      AND h.asset = NEW.asset AND h.debit_owner = NEW.debit_owner AND h.hold_kind = NEW.hold_kind);
  SELECT RAISE(ABORT, 'hold already resolved by another operation') WHERE EXISTS (
    SELECT 1 FROM ledger_transfers r WHERE r.hold_id = NEW.hold_id AND r.type IN ('post', 'void') AND r.op_id <> NEW.op_id);
  SELECT RAISE(ABORT, 'the first row resolving a hold must close it') WHERE NEW.closes_hold IS NULL AND NOT EXISTS (
    SELECT 1 FROM ledger_transfers c WHERE c.hold_id = NEW.hold_id AND c.closes_hold = NEW.hold_id);
  SELECT RAISE(ABORT, 'resolution exceeds the hold') WHERE
    (SELECT COALESCE(SUM(r.amount), 0) FROM ledger_transfers r WHERE r.hold_id = NEW.hold_id AND r.type IN ('post', 'void'))
      + NEW.amount > (SELECT h.amount FROM ledger_transfers h INDEXED BY ledger_transfers_hold WHERE h.hold_id = NEW.hold_id AND h.type = 'pending');
END;
CREATE TRIGGER ledger_transfers_apply AFTER INSERT ON ledger_transfers
BEGIN
  UPDATE ledger_accounts SET
    debits_posted = debits_posted + CASE WHEN NEW.type IN ('posted', 'post') THEN NEW.amount ELSE 0 END,
    debits_pending = debits_pending + CASE NEW.type WHEN 'pending' THEN NEW.amount WHEN 'posted' THEN 0 ELSE -NEW.amount END
  WHERE owner = NEW.debit_owner AND asset = NEW.asset;
  UPDATE ledger_accounts SET credits_posted = credits_posted + NEW.amount
  WHERE NEW.credit_owner IS NOT NULL AND owner = NEW.credit_owner AND asset = NEW.asset;
END;
PRAGMA user_version = 2;
COMMIT;
