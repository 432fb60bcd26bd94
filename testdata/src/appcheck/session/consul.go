package session

import "github.com/hashicorp/consul/api"

func consulLostChannelBad(client *api.Client, stop <-chan struct{}) error {
	lock, err := client.LockKey("service/leader")
	if err != nil {
		return err
	}
	lostCh, err := lock.Lock(stop)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	select {
	case <-lostCh: // want `session liveness check <-lostCh guards the consul KV write via client.KV\(\).Put: the session can expire right after it; the consul lock gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
		return errLost
	default:
	}
	_, err = client.KV().Put(&api.KVPair{Key: "leader/data", Value: []byte("x")}, nil)
	return err
}

func consulLostChannelGood(client *api.Client, stop <-chan struct{}, p *api.KVPair) error {
	lock, err := client.LockKey("service/leader")
	if err != nil {
		return err
	}
	lostCh, err := lock.Lock(stop)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	select {
	case <-lostCh: // ok: an early exit; the write below is a CAS the store checks
		return errLost
	default:
	}
	ok, _, err := client.KV().CAS(p, nil)
	if err == nil && !ok {
		return errLost
	}
	return err
}
