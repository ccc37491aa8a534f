import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';

export type Access = 'read' | 'write';

/** A resource a function may be given: how to grant each kind of access, and how the handler finds it. */
export interface Binding {
  readonly envVar: string;
  readonly value: string;
  readonly grant: Readonly<Record<Access, (grantee: iam.IGrantable) => iam.Grant>>;
}

export function tableBinding(table: dynamodb.ITable, envVar: string): Binding {
  return {
    envVar,
    value: table.tableName,
    grant: {
      read: (grantee) => table.grantReadData(grantee),
      write: (grantee) => table.grantReadWriteData(grantee),
    },
  };
}

export function bucketBinding(bucket: s3.IBucket, envVar: string): Binding {
  return {
    envVar,
    value: bucket.bucketName,
    grant: {
      read: (grantee) => bucket.grantRead(grantee),
      write: (grantee) => bucket.grantReadWrite(grantee),
    },
  };
}

/** Grants the access and hands the function the resource's name, in one place so the two cannot drift. */
export function bind(fn: lambda.Function, binding: Binding, access: Access): void {
  binding.grant[access](fn);
  fn.addEnvironment(binding.envVar, binding.value);
}
