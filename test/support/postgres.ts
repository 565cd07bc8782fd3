// Tests start PostgreSQL the way the cluster profile does (service/postgres-server.ts).
export * from '../../service/postgres-server';
