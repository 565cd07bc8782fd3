-- A ledger schema as the PostgreSQL store wrote it at schema version 2 (no foreign keys on ledger_transfers,
-- a seq primary key, per-row resolution and balance triggers), made by opening ledger-v1-postgres.sql with
-- that store and dumping it with pg_dump --inserts: the same postings as the version-1 fixtures.
-- test/ledger/migration-postgres.test.ts loads it into a fresh database and opens it with the current store.

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

CREATE SCHEMA ledger_v2;

CREATE FUNCTION ledger_v2.ledger_apply_transfer() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  UPDATE ledger_accounts SET
    debits_posted = debits_posted + CASE WHEN NEW.type IN ('posted', 'post') THEN NEW.amount ELSE 0 END,
    debits_pending = debits_pending
      + CASE NEW.type WHEN 'pending' THEN NEW.amount WHEN 'posted' THEN 0 ELSE -NEW.amount END
  WHERE owner = NEW.debit_owner AND asset = NEW.asset
    AND EXISTS (SELECT FROM ledger_operations WHERE id = NEW.op_id);
  IF NOT FOUND THEN
    RAISE EXCEPTION 'transfer names no account %/% or no stored operation %', NEW.debit_owner, NEW.asset, NEW.op_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF NEW.credit_owner IS NOT NULL THEN
    UPDATE ledger_accounts SET credits_posted = credits_posted + NEW.amount
    WHERE owner = NEW.credit_owner AND asset = NEW.asset;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'no account %/%', NEW.credit_owner, NEW.asset USING ERRCODE = 'foreign_key_violation';
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION ledger_v2.ledger_check_resolution() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  hold_amount BIGINT;
  resolved NUMERIC;
  other_operation BOOLEAN;
  closed BOOLEAN;
BEGIN
  SELECT max(r.amount) FILTER (WHERE r.type = 'pending' AND r.asset = NEW.asset
           AND r.debit_owner = NEW.debit_owner AND r.hold_kind = NEW.hold_kind),
         COALESCE(sum(r.amount) FILTER (WHERE r.type IN ('post', 'void')), 0),
         bool_or(r.type IN ('post', 'void') AND r.op_id <> NEW.op_id),
         bool_or(r.closes_hold IS NOT NULL)
    INTO hold_amount, resolved, other_operation, closed
    FROM ledger_transfers r WHERE r.hold_id = NEW.hold_id;
  IF hold_amount IS NULL THEN
    RAISE EXCEPTION 'resolution of an unknown hold %', NEW.hold_id USING ERRCODE = 'check_violation';
  END IF;
  IF other_operation THEN
    RAISE EXCEPTION 'hold % already resolved by another operation', NEW.hold_id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.closes_hold IS NULL AND NOT closed THEN
    RAISE EXCEPTION 'the first row resolving hold % must close it', NEW.hold_id USING ERRCODE = 'check_violation';
  END IF;
  IF resolved + NEW.amount > hold_amount THEN
    RAISE EXCEPTION 'resolution exceeds hold %', NEW.hold_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE FUNCTION ledger_v2.ledger_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;

CREATE FUNCTION ledger_v2.ledger_refuse_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  RAISE EXCEPTION '% rows cannot be deleted', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;

SET default_tablespace = '';

SET default_table_access_method = heap;

CREATE TABLE ledger_v2.ledger_accounts (
    owner text NOT NULL,
    asset text NOT NULL,
    debits_posted bigint DEFAULT 0 NOT NULL,
    credits_posted bigint DEFAULT 0 NOT NULL,
    debits_pending bigint DEFAULT 0 NOT NULL,
    CONSTRAINT ledger_accounts_asset_check CHECK ((asset = ANY (ARRAY['USDC'::text, 'OCT'::text]))),
    CONSTRAINT ledger_accounts_check CHECK (((debits_posted >= 0) AND (credits_posted >= 0) AND (debits_pending >= 0))),
    CONSTRAINT ledger_accounts_check1 CHECK (((owner <> 'mint'::text) OR (debits_pending = 0))),
    CONSTRAINT ledger_accounts_check2 CHECK (((owner = 'mint'::text) OR ((((credits_posted)::numeric - (debits_posted)::numeric) - (debits_pending)::numeric) >= (0)::numeric))),
    CONSTRAINT ledger_accounts_owner_check CHECK (((owner = ANY (ARRAY['treasury'::text, 'mint'::text])) OR ((owner ~~ 'agent:0x%'::text) AND (length(owner) = 48))))
);

CREATE TABLE ledger_v2.ledger_operations (
    id text NOT NULL,
    kind text NOT NULL,
    body text NOT NULL,
    created_at text NOT NULL,
    CONSTRAINT ledger_operations_kind_check CHECK ((kind = ANY (ARRAY['deposit'::text, 'withdraw'::text, 'transfer'::text, 'hold'::text, 'resolve'::text, 'void'::text, 'mint'::text])))
);

CREATE TABLE ledger_v2.ledger_schema_versions (
    version integer NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE ledger_v2.ledger_transfers (
    seq bigint NOT NULL,
    op_id text NOT NULL,
    idx integer NOT NULL,
    type text NOT NULL,
    asset text NOT NULL,
    debit_owner text NOT NULL,
    credit_owner text,
    amount bigint NOT NULL,
    hold_id text,
    closes_hold text,
    hold_kind text,
    contract_id text,
    created_at text NOT NULL,
    CONSTRAINT ledger_transfers_amount_check CHECK ((amount > 0)),
    CONSTRAINT ledger_transfers_check CHECK (
CASE type
    WHEN 'posted'::text THEN ((credit_owner IS NOT NULL) AND (credit_owner <> debit_owner) AND (hold_id IS NULL) AND (closes_hold IS NULL) AND (hold_kind IS NULL))
    WHEN 'pending'::text THEN ((credit_owner IS NULL) AND (debit_owner <> 'mint'::text) AND (hold_id = op_id) AND (idx = 0) AND (closes_hold IS NULL) AND (hold_kind IS NOT NULL))
    WHEN 'post'::text THEN ((credit_owner IS NOT NULL) AND (credit_owner <> debit_owner) AND (credit_owner <> 'mint'::text) AND (hold_id IS NOT NULL) AND (hold_kind IS NOT NULL))
    WHEN 'void'::text THEN ((credit_owner IS NULL) AND (hold_id IS NOT NULL) AND (hold_kind IS NOT NULL))
    ELSE NULL::boolean
END),
    CONSTRAINT ledger_transfers_check1 CHECK (((closes_hold IS NULL) OR (closes_hold = hold_id))),
    CONSTRAINT ledger_transfers_hold_kind_check CHECK ((hold_kind = ANY (ARRAY['escrow'::text, 'stake'::text, 'dispute-bond'::text, 'ba-bond'::text, 'eligibility'::text]))),
    CONSTRAINT ledger_transfers_idx_check CHECK ((idx >= 0)),
    CONSTRAINT ledger_transfers_type_check CHECK ((type = ANY (ARRAY['posted'::text, 'pending'::text, 'post'::text, 'void'::text])))
);

ALTER TABLE ledger_v2.ledger_transfers ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME ledger_v2.ledger_transfers_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE ledger_v2.panel_seats (
    contract_id text NOT NULL,
    backup_agent text NOT NULL,
    opened_at text NOT NULL,
    closed_at text
);

CREATE TABLE ledger_v2.vote_rows (
    contract_id text NOT NULL,
    backup_agent text NOT NULL,
    criterion_index integer NOT NULL,
    vote text NOT NULL,
    majority_outcome text NOT NULL,
    bond_outcome text NOT NULL,
    reward bigint NOT NULL,
    tallied_at text NOT NULL,
    CONSTRAINT vote_rows_bond_outcome_check CHECK ((bond_outcome = ANY (ARRAY['returned'::text, 'slashed'::text, 'partially slashed'::text]))),
    CONSTRAINT vote_rows_criterion_index_check CHECK ((criterion_index >= 0)),
    CONSTRAINT vote_rows_majority_outcome_check CHECK ((majority_outcome = ANY (ARRAY['met'::text, 'not met'::text, 'unclear'::text]))),
    CONSTRAINT vote_rows_reward_check CHECK ((reward >= 0)),
    CONSTRAINT vote_rows_vote_check CHECK ((vote = ANY (ARRAY['met'::text, 'not met'::text, 'unclear'::text, 'no vote'::text])))
);

INSERT INTO ledger_v2.ledger_accounts VALUES ('mint', 'USDC', 1000, 0, 0);
INSERT INTO ledger_v2.ledger_accounts VALUES ('agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'USDC', 0, 290, 0);
INSERT INTO ledger_v2.ledger_accounts VALUES ('agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'USDC', 300, 1000, 300);
INSERT INTO ledger_v2.ledger_accounts VALUES ('treasury', 'USDC', 0, 10, 0);
INSERT INTO ledger_v2.ledger_accounts VALUES ('mint', 'OCT', 5, 0, 0);
INSERT INTO ledger_v2.ledger_accounts VALUES ('agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'OCT', 0, 5, 0);

INSERT INTO ledger_v2.ledger_operations VALUES ('d1', 'deposit', '{"kind":"deposit","asset":"USDC","to":"agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","amount":"1000"}', '2026-11-24T00:23:01.813Z');
INSERT INTO ledger_v2.ledger_operations VALUES ('c1:escrow', 'hold', '{"kind":"hold","owner":"agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","asset":"USDC","amount":"300","holdKind":"escrow","contractId":"c1"}', '2026-11-24T00:23:01.833Z');
INSERT INTO ledger_v2.ledger_operations VALUES ('c2:escrow', 'hold', '{"kind":"hold","owner":"agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","asset":"USDC","amount":"200","holdKind":"escrow","contractId":"c2"}', '2026-11-24T00:23:01.835Z');
INSERT INTO ledger_v2.ledger_operations VALUES ('elig:a', 'hold', '{"kind":"hold","owner":"agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","asset":"USDC","amount":"100","holdKind":"eligibility"}', '2026-11-24T00:23:01.843Z');
INSERT INTO ledger_v2.ledger_operations VALUES ('c1:settle:0', 'resolve', '{"kind":"resolve","holdId":"c1:escrow","parts":[{"to":"agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","amount":"290"},{"to":"treasury","amount":"10"}]}', '2026-11-24T00:23:01.850Z');
INSERT INTO ledger_v2.ledger_operations VALUES ('m1', 'mint', '{"kind":"mint","asset":"OCT","to":"agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","amount":"5","contractId":"c1"}', '2026-11-24T00:23:01.857Z');

INSERT INTO ledger_v2.ledger_schema_versions VALUES (2, '2026-11-24 03:05:46.098188+00');

INSERT INTO ledger_v2.ledger_transfers OVERRIDING SYSTEM VALUE VALUES (1, 'd1', 0, 'posted', 'USDC', 'mint', 'agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 1000, NULL, NULL, NULL, NULL, '2026-11-24T00:23:01.813Z');
INSERT INTO ledger_v2.ledger_transfers OVERRIDING SYSTEM VALUE VALUES (2, 'c1:escrow', 0, 'pending', 'USDC', 'agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', NULL, 300, 'c1:escrow', NULL, 'escrow', 'c1', '2026-11-24T00:23:01.833Z');
INSERT INTO ledger_v2.ledger_transfers OVERRIDING SYSTEM VALUE VALUES (3, 'c2:escrow', 0, 'pending', 'USDC', 'agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', NULL, 200, 'c2:escrow', NULL, 'escrow', 'c2', '2026-11-24T00:23:01.835Z');
INSERT INTO ledger_v2.ledger_transfers OVERRIDING SYSTEM VALUE VALUES (4, 'elig:a', 0, 'pending', 'USDC', 'agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', NULL, 100, 'elig:a', NULL, 'eligibility', NULL, '2026-11-24T00:23:01.843Z');
INSERT INTO ledger_v2.ledger_transfers OVERRIDING SYSTEM VALUE VALUES (5, 'c1:settle:0', 0, 'post', 'USDC', 'agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 290, 'c1:escrow', 'c1:escrow', 'escrow', 'c1', '2026-11-24T00:23:01.850Z');
INSERT INTO ledger_v2.ledger_transfers OVERRIDING SYSTEM VALUE VALUES (6, 'c1:settle:0', 1, 'post', 'USDC', 'agent:0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'treasury', 10, 'c1:escrow', NULL, 'escrow', 'c1', '2026-11-24T00:23:01.850Z');
INSERT INTO ledger_v2.ledger_transfers OVERRIDING SYSTEM VALUE VALUES (7, 'm1', 0, 'posted', 'OCT', 'mint', 'agent:0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 5, NULL, NULL, NULL, 'c1', '2026-11-24T00:23:01.857Z');

SELECT pg_catalog.setval('ledger_v2.ledger_transfers_seq_seq', 7, true);

ALTER TABLE ONLY ledger_v2.ledger_accounts
    ADD CONSTRAINT ledger_accounts_pkey PRIMARY KEY (owner, asset);

ALTER TABLE ONLY ledger_v2.ledger_operations
    ADD CONSTRAINT ledger_operations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY ledger_v2.ledger_schema_versions
    ADD CONSTRAINT ledger_schema_versions_pkey PRIMARY KEY (version);

ALTER TABLE ONLY ledger_v2.ledger_transfers
    ADD CONSTRAINT ledger_transfers_pkey PRIMARY KEY (seq);

ALTER TABLE ONLY ledger_v2.panel_seats
    ADD CONSTRAINT panel_seats_pkey PRIMARY KEY (contract_id, backup_agent);

ALTER TABLE ONLY ledger_v2.vote_rows
    ADD CONSTRAINT vote_rows_pkey PRIMARY KEY (contract_id, backup_agent, criterion_index);

CREATE INDEX ledger_transfers_contract ON ledger_v2.ledger_transfers USING btree (contract_id) WHERE (contract_id IS NOT NULL);

CREATE UNIQUE INDEX ledger_transfers_hold ON ledger_v2.ledger_transfers USING btree (hold_id, closes_hold) WHERE (hold_id IS NOT NULL);

CREATE INDEX ledger_transfers_holder ON ledger_v2.ledger_transfers USING btree (debit_owner, hold_kind) WHERE (type = 'pending'::text);

CREATE INDEX panel_seats_by_agent ON ledger_v2.panel_seats USING btree (backup_agent, closed_at);

CREATE INDEX vote_rows_by_agent ON ledger_v2.vote_rows USING btree (backup_agent, contract_id, criterion_index);

CREATE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON ledger_v2.ledger_accounts FOR EACH ROW EXECUTE FUNCTION ledger_v2.ledger_refuse_delete();

CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_v2.ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_v2.ledger_refuse_delete();

CREATE TRIGGER ledger_operations_immutable BEFORE DELETE OR UPDATE ON ledger_v2.ledger_operations FOR EACH ROW EXECUTE FUNCTION ledger_v2.ledger_refuse_change();

CREATE TRIGGER ledger_operations_no_truncate BEFORE TRUNCATE ON ledger_v2.ledger_operations FOR EACH STATEMENT EXECUTE FUNCTION ledger_v2.ledger_refuse_change();

CREATE TRIGGER ledger_transfers_apply AFTER INSERT ON ledger_v2.ledger_transfers FOR EACH ROW EXECUTE FUNCTION ledger_v2.ledger_apply_transfer();

CREATE TRIGGER ledger_transfers_check_resolution BEFORE INSERT ON ledger_v2.ledger_transfers FOR EACH ROW WHEN ((new.type = ANY (ARRAY['post'::text, 'void'::text]))) EXECUTE FUNCTION ledger_v2.ledger_check_resolution();

CREATE TRIGGER ledger_transfers_immutable BEFORE DELETE OR UPDATE ON ledger_v2.ledger_transfers FOR EACH ROW EXECUTE FUNCTION ledger_v2.ledger_refuse_change();

CREATE TRIGGER ledger_transfers_no_truncate BEFORE TRUNCATE ON ledger_v2.ledger_transfers FOR EACH STATEMENT EXECUTE FUNCTION ledger_v2.ledger_refuse_change();

