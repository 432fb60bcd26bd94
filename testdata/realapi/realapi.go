// Package realapi pins the real third-party modules whose APIs the stubs in
// ../src mirror: it imports every stubbed package (internal ones excepted),
// so go mod tidy keeps their modules and go.sum entries.
// fencetest.TestStubsMatchRealModules loads the packages from this module
// and compares them with the stubs.
package realapi

import (
	_ "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	_ "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	_ "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
	_ "github.com/Azure/azure-sdk-for-go/sdk/azcore"
	_ "cloud.google.com/go/storage"
	_ "github.com/aws/aws-sdk-go-v2/aws"
	_ "github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	_ "github.com/aws/aws-sdk-go-v2/service/s3"
	_ "github.com/aws/smithy-go"
	_ "github.com/bsm/redislock"
	_ "github.com/go-co-op/gocron/v2"
	_ "github.com/go-redsync/redsync/v4"
	_ "github.com/go-redsync/redsync/v4/redis"
	_ "github.com/go-redsync/redsync/v4/redis/goredis/v9"
	_ "cirello.io/dynamolock/v2"
	_ "github.com/go-redis/redis/v8"
	_ "github.com/go-zookeeper/zk"
	_ "github.com/samuel/go-zookeeper/zk"
	_ "github.com/google/uuid"
	_ "github.com/hashicorp/consul/api"
	_ "github.com/jackc/pgconn"
	_ "github.com/jackc/pgx/v4"
	_ "github.com/jackc/pgx/v4/pgxpool"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jmoiron/sqlx"
	_ "github.com/redis/go-redis/v9"
	_ "go.etcd.io/etcd/api/v3/etcdserverpb"
	_ "go.etcd.io/etcd/api/v3/mvccpb"
	_ "go.etcd.io/etcd/client/v3"
	_ "go.etcd.io/etcd/client/v3/concurrency"
	_ "go.uber.org/zap"
	_ "gorm.io/gorm"
	_ "k8s.io/apimachinery/pkg/apis/meta/v1"
	_ "k8s.io/client-go/kubernetes/typed/coordination/v1"
	_ "k8s.io/client-go/tools/leaderelection"
	_ "k8s.io/client-go/tools/leaderelection/resourcelock"
)
