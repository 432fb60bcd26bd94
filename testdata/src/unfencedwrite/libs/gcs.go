package libs

import (
	"context"
	"fmt"

	"cloud.google.com/go/storage"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func gcsBlindBad(ctx context.Context, s *concurrency.Session, client *storage.Client, data []byte) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	w := client.Bucket("reports").Object("daily/latest.json").NewWriter(ctx) // want `GCS write via client.Bucket\("reports"\).Object\("daily/latest.json"\).NewWriter to daily/latest.json under the etcd mutex is not fenced: it has no If\(Conditions\{...\}\) precondition and its object name does not carry the token`
	if _, err := w.Write(data); err != nil {
		return err
	}
	return w.Close()
}

func gcsGenerationGood(ctx context.Context, s *concurrency.Session, client *storage.Client, data []byte) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	obj := client.Bucket("reports").Object("daily/latest.json")
	attrs, err := obj.Attrs(ctx)
	if err != nil {
		return err
	}
	// ok: a compare-and-set on the generation read under the lock
	w := obj.If(storage.Conditions{GenerationMatch: attrs.Generation}).NewWriter(ctx)
	if _, err := w.Write(data); err != nil {
		return err
	}
	return w.Close()
}

func gcsZeroConditionBad(ctx context.Context, s *concurrency.Session, client *storage.Client) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// a zero GenerationMatch is no condition at all
	return client.Bucket("reports").Object("daily/latest.json").If(storage.Conditions{GenerationMatch: 0}).Delete(ctx) // want `GCS write via .*Delete to daily/latest.json under the etcd mutex is not fenced`
}

func gcsTokenNameGood(ctx context.Context, s *concurrency.Session, client *storage.Client, data []byte) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: one object per token, created only if absent
	name := fmt.Sprintf("daily/%020d.json", m.Header().Revision)
	w := client.Bucket("reports").Object(name).If(storage.Conditions{DoesNotExist: true}).NewWriter(ctx)
	if _, err := w.Write(data); err != nil {
		return err
	}
	return w.Close()
}

func gcsHandleFromElsewhereGood(ctx context.Context, s *concurrency.Session, obj *storage.ObjectHandle) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the handle comes from the caller, who may have set its
	// conditions (unknown, not reported)
	return obj.Delete(ctx)
}
