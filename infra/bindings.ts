import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { acknowledge, arnInFinding } from './checks';

export type Access = 'read' | 'write' | 'delete';

/** A resource a function may be given: how to grant each kind of access, and how the handler finds it. */
export interface Binding {
  readonly envVar: string;
  readonly value: string;
  readonly grant: Readonly<Partial<Record<Access, (grantee: iam.IGrantable) => iam.Grant>>>;
}

/**
 * The actions a function gets on a table, never Scan: no request path scans (STYLE.md), nor does a
 * stream handler. Transactions need no action of their own: each item of one is checked as its action.
 */
export const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
export const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/** `indexed`: the table has secondary indexes, which the grants then cover (`<table>/index/*`). */
export function tableBinding(table: dynamodb.ITable, envVar: string, indexed: boolean): Binding {
  const grant = (grantee: iam.IGrantable, actions: string[]) => {
    if (indexed) {
      const principal = grantee.grantPrincipal as unknown as IConstruct;
      acknowledge(
        principal,
        `AwsSolutions-IAM5[Resource::${arnInFinding(table, principal)}/index/*]`,
        "the table's own secondary indexes, which its Queries name; no other table's",
      );
    }
    // Table.grant covers the table's indexes too.
    return table.grant(grantee, ...actions);
  };
  return {
    envVar,
    value: table.tableName,
    grant: {
      read: (grantee) => grant(grantee, TABLE_READ_ACTIONS),
      write: (grantee) => grant(grantee, [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS]),
    },
  };
}

/**
 * The key layout of lib/files/object-store.ts (fileKey, heldKey): files under `files/`, the bytes of
 * chunked uploads held under `uploads/`. Every tenant's keys start with these; IAM cannot tell tenants
 * apart (a function serves them all), so the grants stop at the prefix.
 */
export const FILE_PREFIXES = ['files/', 'uploads/'] as const;

export function bucketBinding(bucket: s3.IBucket, envVar: string): Binding {
  const allow = (grantee: iam.IGrantable, actions: string[], prefixes: readonly string[]) => {
    const principal = grantee.grantPrincipal as unknown as IConstruct;
    for (const prefix of prefixes) {
      acknowledge(
        principal,
        `AwsSolutions-IAM5[Resource::${arnInFinding(bucket, principal)}/${prefix}*]`,
        "one function serves every tenant's files, so its grant stops at the key layout's prefix",
      );
    }
    const resourceArns = prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`));
    return iam.Grant.addToPrincipal({ grantee, actions, resourceArns });
  };
  return {
    envVar,
    value: bucket.bucketName,
    grant: {
      // Reading and presigning a GET of a stored file (lib/items/file-access.ts): nothing else.
      read: (grantee) => allow(grantee, ['s3:GetObject'], ['files/']),
      // Uploads: put, multipart, read back held bytes, delete what an overwrite replaced. ListBucket (on
      // the prefixes alone) lets a HEAD of a missing key answer 404 rather than 403 (completeMultipart).
      write: (grantee) => {
        grantee.grantPrincipal.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: ['s3:ListBucket'],
            resources: [bucket.bucketArn],
            conditions: { StringLike: { 's3:prefix': FILE_PREFIXES.map((prefix) => `${prefix}*`) } },
          }),
        );
        return allow(
          grantee,
          ['s3:PutObject', 's3:GetObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
          FILE_PREFIXES,
        );
      },
      // The Binaries stream handler (lib/files/cleanup.ts): deletes objects and aborts uploads.
      delete: (grantee) => allow(grantee, ['s3:DeleteObject', 's3:AbortMultipartUpload'], FILE_PREFIXES),
    },
  };
}

/** Grants the access and hands the function the resource's name, in one place so the two cannot drift. */
export function bind(fn: lambda.Function, binding: Binding, access: Access): void {
  const grant = binding.grant[access];
  if (!grant) throw new Error(`${binding.envVar} cannot be bound with ${access} access`);
  grant(fn);
  fn.addEnvironment(binding.envVar, binding.value);
}
