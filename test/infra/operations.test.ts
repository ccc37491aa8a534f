import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { KirokuStack } from '../../infra/kiroku-stack';
import { defaultOperations, operationsFromContext } from '../../infra/operations';
import { SettingsError } from '../../lib/config/settings';
import { appWithProjectContext, SYNTH_TIMEOUT_MS } from './synth';

describe('operationsFromContext', () => {
  it('gives the defaults when the deploy sets nothing', () => {
    expect(operationsFromContext({})).toEqual(defaultOperations);
  });

  it.each([
    [{ reservedConcurrency: '25' }, { reservedConcurrency: 25 }],
    [{ reservedConcurrency: 'none' }, { reservedConcurrency: undefined }],
    [
      { alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:kiroku-ops' },
      { alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:kiroku-ops' },
    ],
    [{ fileAccessLogging: 'cloudtrail' }, { fileAccessLogging: 'cloudtrail' }],
  ])('takes %j', (context, expected) => {
    expect(operationsFromContext(context)).toMatchObject(expected);
  });

  it.each([
    [{ reservedConcurrency: '0' }, /reservedConcurrency/],
    [{ reservedConcurrency: 'lots' }, /reservedConcurrency/],
    [{ alarmTopicArn: 'kiroku-ops' }, /alarmTopicArn: must be the ARN of an SNS topic/],
    [{ fileAccessLogging: 'syslog' }, /fileAccessLogging/],
  ])('refuses %j, naming the setting', (context, message) => {
    expect(() => operationsFromContext(context)).toThrow(SettingsError);
    expect(() => operationsFromContext(context)).toThrow(message);
  });
});

describe('KirokuStack with the operations set', () => {
  it(
    'notifies the topic of every alarm and its recovery, and logs file access with CloudTrail data events',
    () => {
      // Bundling is skipped (no stack is named for it): the functions' code is not what is looked at here.
      const stack = new KirokuStack(appWithProjectContext({ 'aws:cdk:bundling-stacks': [] }), 'Operated', {
        operations: operationsFromContext({
          alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:kiroku-ops',
          fileAccessLogging: 'cloudtrail',
          reservedConcurrency: 'none',
        }),
      });
      const template = Template.fromStack(stack);
      const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
      expect(alarms.length).toBeGreaterThan(0);
      for (const alarm of alarms) {
        expect(alarm.Properties.AlarmActions).toEqual(['arn:aws:sns:us-east-1:123456789012:kiroku-ops']);
        expect(alarm.Properties.OKActions).toEqual(['arn:aws:sns:us-east-1:123456789012:kiroku-ops']);
      }
      // No log bucket: the trail records every read and write of the files.
      template.resourceCountIs('AWS::S3::Bucket', 2); // the files, and the trail's own bucket
      const [trail] = Object.values(template.findResources('AWS::CloudTrail::Trail'));
      expect(trail?.Properties.EventSelectors).toEqual([
        expect.objectContaining({
          IncludeManagementEvents: false,
          ReadWriteType: 'All',
          DataResources: [
            {
              Type: 'AWS::S3::Object',
              Values: [{ 'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.any(String), 'Arn'] }, '/']] }],
            },
          ],
        }),
      ]);
      for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
        expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
      }
    },
    SYNTH_TIMEOUT_MS,
  );
});
